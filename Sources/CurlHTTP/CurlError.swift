/// Everything that can go wrong in one libcurl transfer: the one error type of this module.
///
/// Each case is a kind of failure callers treat differently; ``other(code:message:)`` keeps curl's own
/// code and message (from `CURLOPT_ERRORBUFFER`, else `curl_easy_strerror`) for the rest. See
/// [libcurl error codes](https://curl.se/libcurl/c/libcurl-errors.html).
package enum CurlError: Error, Sendable, Hashable {
    /// Nothing arrived within the inactivity timeout (connecting included).
    case timedOut
    /// The server refused the connection (nothing listens on the port).
    case connectionRefused
    /// The network or the host is unreachable.
    case networkUnreachable
    /// The host name could not be resolved.
    case hostNotFound
    /// The connection broke while sending or receiving.
    case connectionLost
    /// The TLS handshake or the certificate check failed; curl's message says which.
    case secureConnectionFailed(message: String)
    /// The server redirected more than the allowed number of times.
    case tooManyRedirects(limit: Int)
    /// A redirect (or the URL itself) uses a scheme other than http or https.
    case protocolNotAllowed(message: String)
    /// The decoded body passed the size limit; the transfer was stopped there.
    case bodyTooLarge(limit: Int)
    /// The connection filter refused the address the host name resolved to.
    case addressRefused(address: String)
    /// libcurl could not be set up (global init, a handle, an option); a bug or an old libcurl.
    case setupFailed(message: String)
    /// Any other libcurl failure, with its `CURLcode` and message.
    case other(code: Int, message: String)
}
