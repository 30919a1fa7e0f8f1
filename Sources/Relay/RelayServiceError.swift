public import Foundation

/// What can stop the relay service from starting or running, with what to do about it.
public enum RelayServiceError: Error, Sendable, Equatable, LocalizedError {
    /// The database file (or its folder) cannot be created or opened; `reason` says why and what to do.
    case cannotOpenDatabase(path: String, reason: String)
    /// A command that only reads was given a database file that does not exist (it is never created).
    case databaseMissing(path: String)
    /// The database opened, but reading or writing it failed.
    case databaseFailure(path: String, reason: String)
    /// The relay list given with `--relay-list` cannot be read.
    case cannotReadRelayList(path: String, reason: String)
    /// The HTTP server could not start; `reason` is the server's own message (address in use, …).
    case cannotListen(host: String, port: Int, reason: String)

    /// A sentence saying what failed and what to do next.
    public var errorDescription: String? {
        switch self {
        case .cannotOpenDatabase(let path, let reason):
            "Cannot open the relay database '\(path)': \(reason). To use another file, give --db PATH."
        case .databaseMissing(let path):
            "There is no relay database at '\(path)': the file does not exist, and reading it does not create it. "
                + "Give the path of the relay's database with --db PATH (or $ORGSOCIAL_RELAY_DB); a relay creates "
                + "its database when it starts ('orgsocial relay serve --db PATH')."
        case .databaseFailure(let path, let reason):
            "The relay database '\(path)' failed: \(reason). Check the disk space and the file's permissions; "
                + "if the file is damaged, restore it from a backup (see relay/README.md)."
        case .cannotReadRelayList(let path, let reason):
            "Cannot read the relay list '\(path)': \(reason). Give a readable file with one relay URL per line, "
                + "or leave out --relay-list to use the two public relays."
        case .cannotListen(_, _, let reason):
            reason.hasSuffix(".") ? reason : reason + "."
        }
    }
}
