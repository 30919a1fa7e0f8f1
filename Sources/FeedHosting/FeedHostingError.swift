public import Foundation

/// Errors from the FeedHosting module: setting up a node, and reading or writing its files.
///
/// Errors a client causes never surface as this type: handlers turn them into HTTP responses (see
/// ``FeedNode``). These are the failures an operator sees: starting a node, and managing its tokens.
public enum FeedHostingError: Error, Sendable, Equatable, LocalizedError {
    /// The feed root (the folder the node serves feeds from) does not exist.
    case rootNotFound(path: String)
    /// The feed root is a file (or something else) rather than a folder.
    case rootNotAFolder(path: String)
    /// A feed path is not `social.org` or `<name>/social.org` with a valid name.
    case invalidFeedPath(String)
    /// The site URL (the node's public address) is not an absolute http(s) URL without a query.
    case invalidSiteURL(String)
    /// A file could not be read.
    case cannotRead(path: String, reason: String)
    /// A file could not be written (the old file, if any, is unchanged).
    case cannotWrite(path: String, reason: String)
    /// A state file (tokens, accounts, secret) exists but does not hold what it should.
    case corruptStateFile(path: String, reason: String)
    /// The system's secure random generator failed.
    case randomUnavailable(reason: String)

    /// A sentence saying what failed, naming the file or value, and what to do next.
    public var errorDescription: String? {
        switch self {
        case .rootNotFound(let path):
            "The feed root '\(path)' does not exist."
        case .rootNotAFolder(let path):
            "The feed root '\(path)' is a file, not a folder."
        case .invalidFeedPath(let path):
            "'\(path)' is not a feed path: a feed path is 'social.org' or '<name>/social.org', where the name "
                + "has no '/' and does not start with '.'."
        case .invalidSiteURL(let url):
            "'\(url)' is not a site URL: a site URL is an absolute http:// or https:// URL without a query, "
                + "e.g. https://social.example.org."
        case .cannotRead(let path, let reason):
            "Cannot read '\(path)': \(reason). Check that it exists and that this user may read it."
        case .cannotWrite(let path, let reason):
            "Cannot write '\(path)': \(reason). Check that the folder exists and is writable; the old "
                + "file, if any, was not changed."
        case .corruptStateFile(let path, let reason):
            "The state file '\(path)' is damaged: \(reason). Restore it from a backup, or move it away to "
                + "start afresh (tokens or accounts in it will stop working)."
        case .randomUnavailable(let reason):
            "Cannot generate a random token: \(reason). Check the system's entropy source."
        }
    }
}
