public import Foundation

/// Everything that can go wrong while talking to a feed's server: the one error type of this module.
///
/// Each case names the URL involved and its `errorDescription` says what to do next. Errors thrown by
/// an edit closure (such as `OrgSocialError.postNotFound`) are passed through unchanged instead.
///
/// ```swift
/// do {
///     try await publisher.publish(to: feedURL, token: token) { try $0.deletePost(id: id) }
/// } catch OrgSocialClientError.unauthorized(let url, _) {
///     print("The server at \(url) refused the token.")
/// }
/// ```
public enum OrgSocialClientError: Error, Sendable, Hashable, LocalizedError {
    /// The URL cannot be used (not http or https, or no host).
    case invalidURL(String, reason: String)
    /// The options describing a new post are not acceptable (the message says which and why).
    case invalidOptions(String)
    /// No response arrived: the server could not be reached, or it did not answer in time.
    case networkError(url: String, message: String)
    /// The feed does not exist at this URL (404 or 410), and creating it was not allowed.
    case notFound(url: String)
    /// Reading the feed failed with an unexpected status.
    case fetchFailed(url: String, statusCode: Int)
    /// The server refused the bearer token (401 or 403).
    case unauthorized(url: String, message: String?)
    /// The Org Social Host refused the vfile (401): it is malformed, unknown or its signature is wrong.
    case vfileRejected(url: String, message: String?)
    /// Another writer kept changing the feed: at every attempt the destination said it had changed since
    /// it was read (412 Precondition Failed, a stale Git `sha`); nothing was written. `currentETag` is the
    /// current version when the destination said.
    case conflict(url: String, attempts: Int, currentETag: String?)
    /// The server requires a conditional request (428) and none was sent.
    case preconditionRequired(url: String)
    /// The server refused the feed as invalid (422), with its diagnostics.
    case rejected(url: String, diagnostics: [RemoteDiagnostic], message: String?)
    /// The feed is larger than the server accepts (413).
    case tooLarge(url: String, byteCount: Int, message: String?)
    /// Uploading failed with another status.
    case uploadFailed(statusCode: Int, url: String, message: String?)
    /// The Org Social Host answered with an error envelope (for example a nickname already taken).
    case hostError(url: String, statusCode: Int, messages: [String])
    /// The server answered something this client cannot use (no ETag, not a feed, bad JSON, …).
    case invalidResponse(url: String, reason: String)
    /// A downloaded feed is larger than the reader accepts (``FeedFetcher/Configuration/maximumBodyBytes``).
    case feedTooLarge(url: String, limit: Int)
    /// The answer is not a `social.org` file (for example an HTML page).
    case notAFeed(url: String, reason: String)
    /// The server did not finish answering within the total time allowed.
    case timedOut(url: String, after: Duration)
    /// The forge limits how often it is asked and the wait (`retryAfter`) is longer than a write waits.
    case rateLimited(url: String, retryAfter: Duration)
    /// A forge answered 404 for the repository file: the repository, the branch or the folder does not
    /// exist, or the token may not see it (private repositories answer 404, not 403).
    case repositoryNotFound(url: String, repository: String, branch: String, path: String)
    /// An Org Social relay refused a request: an error envelope (`type: Error`, relay-api.md §1.2) or
    /// an HTTP error status, with the relay's messages exactly as it wrote them (may be empty).
    case relayError(url: String, statusCode: Int, messages: [String])
    /// An Org Social mirror answered an HTTP error status, with its problem object's `detail` (else its
    /// `title`) when it sent one.
    case mirrorError(url: String, statusCode: Int, message: String?)

    /// What failed, where, and what to do about it.
    public var errorDescription: String? {
        switch self {
        case .invalidURL(let url, let reason):
            return "The URL '\(url)' cannot be used: \(reason) Give the http:// or https:// URL of the server."
        case .invalidOptions(let message):
            return "The new post is not valid: \(message)"
        case .networkError(let url, let message):
            return "Cannot reach \(url): \(message). Check the URL and your connection, then try again."
        case .notFound(let url):
            return "There is no feed at \(url) (HTTP 404). Check the URL, or create the feed there first."
        case .fetchFailed(let url, let statusCode):
            return "Reading \(url) failed with HTTP \(statusCode). Try again later, or check the URL."
        case .unauthorized(let url, let message):
            return "The server at \(url) refused the token (HTTP 401)\(Self.quote(message)). Check the token "
                + "you publish with and that it belongs to this feed."
        case .vfileRejected(let url, let message):
            return "The Org Social Host at \(url) refused the vfile\(Self.quote(message)). Check the vfile URL "
                + "you got at sign-up; a lost vfile cannot be recovered."
        case .conflict(let url, let attempts, _):
            let tries = attempts == 1 ? "once" : "\(attempts) times"
            return "The feed at \(url) changed elsewhere while it was being updated (tried \(tries)); nothing was "
                + "uploaded. Someone else is writing to it; try again in a moment."
        case .rateLimited(let url, let retryAfter):
            return "\(url) limits how often it is asked: try again in \(retryAfter.components.seconds) s."
        case .repositoryNotFound(let url, let repository, let branch, let path):
            return "\(url) answered 404: the repository \(repository), its branch '\(branch)' or the folder of "
                + "'\(path)' does not exist, or the token may not see the repository."
        case .preconditionRequired(let url):
            return "The server at \(url) only accepts conditional uploads (HTTP 428: If-Match or "
                + "If-None-Match). This is a bug in the client; please report it."
        case .rejected(let url, let diagnostics, let message):
            var text = "The server at \(url) rejected the feed as invalid (HTTP 422)\(Self.quote(message))."
            if !diagnostics.isEmpty {
                text += "\n" + diagnostics.map { "  " + $0.description }.joined(separator: "\n")
            }
            return text + "\nFix these problems and publish again."
        case .tooLarge(let url, let byteCount, let message):
            return "The server at \(url) refused the feed: \(byteCount) bytes is too large (HTTP 413)"
                + "\(Self.quote(message)). Remove old posts or move them to an archive file."
        case .uploadFailed(let statusCode, let url, let message):
            return "Uploading to \(url) failed with HTTP \(statusCode)\(Self.quote(message)). Try again later."
        case .hostError(let url, let statusCode, let messages):
            if messages.isEmpty, [404, 405, 501].contains(statusCode) {
                return "The server at \(url) is not an Org Social Host: it has no host API (HTTP \(statusCode)). "
                    + "Check the host's URL (for example https://host.org-social.org)."
            }
            let detail = messages.isEmpty ? "no details" : Self.joined(messages)
            return "The Org Social Host at \(url) answered HTTP \(statusCode): \(detail)."
        case .invalidResponse(let url, let reason):
            return "The answer from \(url) cannot be used: \(reason)."
        case .feedTooLarge(let url, let limit):
            return "The feed at \(url) is larger than \(limit) bytes, so it was not read. Ask its owner to move "
                + "old posts to an archive file."
        case .notAFeed(let url, let reason):
            return "\(url) is not a social.org feed: \(reason). Check that the URL points at the raw file."
        case .timedOut(let url, let after):
            return "\(url) did not answer within \(after.components.seconds) s. The server may be slow or down; "
                + "try again later."
        case .relayError(let url, let statusCode, let messages):
            let detail = messages.isEmpty ? "no details" : Self.joined(messages)
            return "The relay answered HTTP \(statusCode) for \(url): \(detail). "
                + Self.relayAdvice(statusCode: statusCode, messages: messages)
        case .mirrorError(let url, let statusCode, let message):
            let detail = message.map { Self.joined([$0]) }.flatMap { $0.isEmpty ? nil : $0 } ?? "no details"
            return "The mirror answered HTTP \(statusCode) for \(url): \(detail). "
                + (statusCode == 404
                    ? "The mirror does not have what was asked for; check the URL, or read the feeds directly."
                    : "Try again later, or give another mirror (--mirror URL, or --mirror none).")
        }
    }

    /// What to do about a relay's error answer, from its status and whether it said why.
    private static func relayAdvice(statusCode: Int, messages: [String]) -> String {
        switch statusCode {
        case 404 where messages.isEmpty:
            "This is not an endpoint of an Org Social relay: check the relay's URL, or try another relay."
        case 404:
            "Check what you asked for (the relay matches feed and post URLs and group names exactly), or try "
                + "another relay."
        case 429:
            "The relay limits how often it is asked; wait a minute and try again."
        case 400..<500:
            "The relay refused the request as given; check the URL or name you gave."
        default:
            "The relay itself failed; try again later, or try another relay."
        }
    }

    /// A server's messages as one clause: joined with `; `, without the final period each may have (the
    /// description adds its own).
    private static func joined(_ messages: [String]) -> String {
        var text = messages.joined(separator: "; ")
        while text.hasSuffix(".") { text.removeLast() }
        return text
    }

    private static func quote(_ message: String?) -> String {
        guard let message, !message.isEmpty else { return "" }
        return ": \(message)"
    }
}

/// The errors of ``PostWriter``, under the name OrgSocialKit users know.
public typealias PostWriterError = OrgSocialClientError
