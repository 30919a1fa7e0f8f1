internal import CCurl
import Glibc

// MARK: - Turning libcurl's return codes into CurlError

extension CurlError {
    /// The one check every `CURLcode` goes through: returns on `CURLE_OK`, throws the matching case otherwise.
    /// - Parameters:
    ///   - code: the code a libcurl call returned.
    ///   - context: what was being done, for setup failures (e.g. `"CURLOPT_URL"`).
    ///   - detail: curl's message from `CURLOPT_ERRORBUFFER`, if any (else `curl_easy_strerror` is used).
    ///   - redirectLimit: the redirect limit of the transfer, for ``tooManyRedirects(limit:)``.
    ///   - systemError: `CURLINFO_OS_ERRNO`, to tell a refused connection from an unreachable network.
    /// - Throws: ``CurlError`` for any code but `CURLE_OK`.
    static func check(
        _ code: CURLcode, context: String? = nil, detail: String = "", redirectLimit: Int = 0, systemError: Int = 0
    ) throws(CurlError) {
        guard code != CURLE_OK else { return }
        let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
        if let context { throw .setupFailed(message: "\(context): \(message)") }
        throw CurlError(code: code, message: message, redirectLimit: redirectLimit, systemError: systemError)
    }

    /// The check for `CURLMcode`s (the multi interface's own codes).
    /// - Parameters:
    ///   - code: the code a `curl_multi_*` call returned.
    ///   - context: the call, for the message.
    /// - Throws: ``setupFailed(message:)`` for any code but `CURLM_OK`.
    static func check(multi code: CURLMcode, context: String) throws(CurlError) {
        guard code != CURLM_OK else { return }
        throw .setupFailed(message: "\(context): \(String(cString: curl_multi_strerror(code)))")
    }

    /// The case for a failed transfer's code.
    private init(code: CURLcode, message: String, redirectLimit: Int, systemError: Int) {
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            self = .timedOut
        case CURLE_COULDNT_CONNECT:
            let unreachable = systemError == Int(ENETUNREACH) || systemError == Int(EHOSTUNREACH)
            self = unreachable ? .networkUnreachable : .connectionRefused
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            self = .hostNotFound
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2,
            CURLE_HTTP2_STREAM:
            self = .connectionLost
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
            CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ENGINE_INITFAILED, CURLE_USE_SSL_FAILED:
            self = .secureConnectionFailed(message: message)
        case CURLE_TOO_MANY_REDIRECTS:
            self = .tooManyRedirects(limit: redirectLimit)
        case CURLE_UNSUPPORTED_PROTOCOL:
            self = .protocolNotAllowed(message: message)
        default:
            self = .other(code: Int(code.rawValue), message: message)
        }
    }
}
