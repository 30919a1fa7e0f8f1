public import Foundation

/// What can go wrong in the bridge's own machinery: its state file, its run lock, its accounts.
///
/// Errors from the Mastodon API are `TootClientError`s and pass through unchanged.
public enum BridgeError: Error, Sendable, Hashable, LocalizedError {
    /// The state file could not be opened, migrated, read or written.
    case storage(path: String, reason: String)
    /// Another run holds the lock of this state file and did not release it in time.
    case busy(lockPath: String, holder: String?, waited: Duration)
    /// The lock file could not be created or locked.
    case cannotLock(lockPath: String, reason: String)
    /// An account of this name is already in the state file.
    case accountExists(name: String)
    /// No account of this name is in the state file.
    case unknownAccount(name: String)
    /// A value cannot be stored as given (an empty name, a mapping without a status).
    case invalidValue(String)
    /// No authorization came back from the browser in time (the loopback redirect never arrived).
    case authorizationTimedOut(waited: Duration)
    /// An image a post links to cannot be fetched or read (`target` is the link or the path it names).
    case unreadableImage(target: String, reason: String)

    /// What went wrong (an application adds what its user can do about it).
    public var errorDescription: String? {
        switch self {
        case .storage(let path, let reason):
            return "The bridge state file \(path) cannot be used: \(reason)."
        case .busy(let lockPath, let holder, let waited):
            let who = holder.map { " (process \($0))" } ?? ""
            let seconds = waited.components.seconds
            return "Another bridge run\(who) is using this state file (lock \(lockPath)); waited \(seconds) s."
        case .cannotLock(let lockPath, let reason):
            return "The bridge lock file \(lockPath) cannot be locked: \(reason). Check the folder's permissions."
        case .accountExists(let name):
            return "A bridge account named '\(name)' already exists."
        case .unknownAccount(let name):
            return "There is no bridge account named '\(name)'."
        case .invalidValue(let reason):
            return "The bridge cannot store this: \(reason)."
        case .authorizationTimedOut(let waited):
            return "No answer came from the browser within \(waited.components.seconds) s."
        case .unreadableImage(let target, let reason):
            return "The image \(target) cannot be read: \(reason)."
        }
    }
}
