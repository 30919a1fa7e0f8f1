/// Why a request got no usable response: the one error type of the HTTP transport.
///
/// Any status code is a response, not an error; only failures to get a response at all land here.
/// Clients built on the transport (the Org Social client, TootClient) turn these into their own errors.
public enum HTTPClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No response arrived: the server could not be reached, or it did not answer in time.
    case networkError(url: String, message: String)
    /// The decoded body passed ``HTTPClientRequest/maximumBodyBytes``; reading stopped there.
    case bodyTooLarge(url: String, limit: Int)

    /// What failed, where, and what to do about it.
    public var description: String {
        switch self {
        case .networkError(let url, let message):
            return "No answer from \(url): \(message). Check the address and the network, then try again."
        case .bodyTooLarge(let url, let limit):
            return "The answer from \(url) is larger than \(limit) bytes, the most this request accepts."
        }
    }
}
