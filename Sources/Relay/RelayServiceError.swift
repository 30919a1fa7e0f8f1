public import Foundation

/// What can stop the relay service from starting or running.
public enum RelayServiceError: Error, Sendable, Equatable, LocalizedError {
    /// The database file (or its folder) cannot be created or opened; `reason` says why and what to do.
    case cannotOpenDatabase(path: String, reason: String)
    /// A command that only reads was given a database file that does not exist (it is never created).
    case databaseMissing(path: String)
    /// The database opened, but reading or writing it failed.
    case databaseFailure(path: String, reason: String)
    /// The relay list (the file of peer relays to discover feeds from) cannot be read.
    case cannotReadRelayList(path: String, reason: String)
    /// The HTTP server could not start; `reason` is the server's own message (address in use, …).
    case cannotListen(host: String, port: Int, reason: String)
    /// The mirror API's path prefix cannot be used; `reason` says why and what to give.
    case invalidMirrorPrefix(String, reason: String)

    /// A sentence saying what failed and, where the fix is the file's, what to do about it.
    public var errorDescription: String? {
        switch self {
        case .cannotOpenDatabase(let path, let reason):
            "Cannot open the relay database '\(path)': \(reason)."
        case .databaseMissing(let path):
            "There is no relay database at '\(path)': the file does not exist, and reading it does not create it; "
                + "a relay creates its database when it starts."
        case .databaseFailure(let path, let reason):
            "The relay database '\(path)' failed: \(reason). Check the disk space and the file's permissions; "
                + "if the file is damaged, restore it from a backup (see relay/README.md)."
        case .cannotReadRelayList(let path, let reason):
            "Cannot read the relay list '\(path)': \(reason). It must be a readable file with one relay URL per "
                + "line."
        case .cannotListen(_, _, let reason):
            reason.hasSuffix(".") ? reason : reason + "."
        case .invalidMirrorPrefix(_, let reason):
            reason
        }
    }
}
