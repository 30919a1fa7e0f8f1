public import Foundation
public import OrgSocial
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `social.org` file on this machine that several writers may change at once: every change is read,
/// made and written under an exclusive lock, so no writer's change is lost to another's.
///
/// The lock is an advisory `flock(2)` on a lock file beside the feed (`.social.org.lock`), so an editor
/// that saves by renaming a new file into place does not defeat it. Every writer of this toolkit takes it:
/// the editing commands, `sync`, `publish`, the bridge's pull and the engine. A writer waits for it at most
/// ``lockWait``, then fails with ``LocalFeedFileError/locked(path:holder:waited:)``, quoting who holds it.
///
/// Two ways to change the file:
/// - ``update(_:)`` reads the current bytes and writes what the transform makes of them, all under the
///   lock (a local edit);
/// - ``replace(expecting:with:)`` writes bytes computed elsewhere (an edit published first, then written
///   here), but only if the file still holds the bytes they were computed from; when the file changed
///   meanwhile (a post added from another terminal during the upload), the new bytes are merged into
///   the file as it is now, three-way, so both changes stay.
///
/// ```swift
/// let file = LocalFeedFile(path: "social.org", holder: "my-app")
/// let id = try file.update { bytes in
///     var feed = Feed(bytes: bytes)
///     let id = feed.append(PostDraft(body: "Hello")).id
///     return (id, feed.bytes)
/// }
/// ```
public struct LocalFeedFile: Sendable {
    /// The feed file.
    public let path: String
    /// How long a writer waits for the lock while another holds it.
    public var lockWait: Duration
    /// Who takes the lock, in words (written into the lock file for others to quote).
    public var holder: String

    /// Names a feed file.
    /// - Parameters:
    ///   - path: the file (a symbolic link is followed: the file it points to is replaced).
    ///   - lockWait: how long to wait for another writer; 10 seconds by default.
    ///   - holder: who is writing, e.g. `orgsocial post`.
    public init(path: String, lockWait: Duration = .seconds(10), holder: String = "orgsocial") {
        self.path = path
        self.lockWait = lockWait
        self.holder = holder
    }

    /// The file's current bytes, read without the lock.
    /// - Returns: the bytes.
    /// - Throws: ``LocalFeedFileError/noFile(path:)``, ``LocalFeedFileError/unreadable(path:reason:)``.
    public func read() throws(LocalFeedFileError) -> [UInt8] {
        try readWithStatus().bytes
    }

    /// The file's bytes and its status when they were read.
    private func readWithStatus() throws(LocalFeedFileError) -> (bytes: [UInt8], status: FileStatus) {
        do {
            guard let (bytes, status) = try AtomicFile.read(path) else { throw LocalFeedFileError.noFile(path: path) }
            guard status.isRegularFile else {
                throw LocalFeedFileError.unreadable(path: path, reason: "it is not a regular file")
            }
            return (bytes, status)
        } catch let error as LocalFeedFileError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
    }

    /// Under the lock: reads the file, lets `transform` compute new bytes from the current ones, and writes
    /// them when they differ.
    /// - Parameter transform: gets the current bytes; returns its result and the new bytes, or `nil` to
    ///   leave the file as it is. It runs again when the file changed while it ran (an editor's save: an
    ///   editor takes no lock), up to five times.
    /// - Returns: what `transform` returned.
    /// - Throws: ``LocalFeedFileError``, or what `transform` throws (then nothing is written).
    public func update<Value>(_ transform: ([UInt8]) throws -> (Value, [UInt8]?)) throws -> Value {
        // A missing or read-only file is refused before the lock file is made beside it.
        switch Result(catching: { () throws(SystemCallError) in try FileStatus.of(path: path) }) {
        case .success(nil): throw LocalFeedFileError.noFile(path: path)
        case .failure(let error): throw LocalFeedFileError.unreadable(path: path, reason: error.description)
        case .success: break
        }
        if AtomicFile.isReadOnly(path) { throw LocalFeedFileError.readOnly(path: path) }
        return try withLock {
            // An editor takes no lock: if the file changed while `transform` ran, run it again on the new
            // content rather than overwrite the editor's save.
            for _ in 1...Self.attemptsAgainstEditors {
                let (current, status) = try readWithStatus()
                let (value, bytes) = try transform(current)
                guard let bytes, bytes != current else { return value }
                guard (try? FileStatus.of(path: path)) == status else { continue }
                try write(bytes)
                return value
            }
            throw LocalFeedFileError.keptChanging(path: path, attempts: Self.attemptsAgainstEditors)
        }
    }

    /// How many times ``update(_:)`` runs its transform again when the file keeps changing under it.
    static let attemptsAgainstEditors = 5

    /// What ``replace(expecting:with:)`` did.
    public enum Replacement: Sendable, Equatable {
        /// The file held the expected bytes and now holds the new ones (or held the new ones already).
        case replaced
        /// The file had changed since the new bytes were computed; the change was merged into it, and the
        /// file now holds these bytes (both the other writer's change and this one).
        case merged([UInt8])
        /// The file had changed in a way that conflicts with the new bytes (the same post edited two ways):
        /// it was left as the other writer made it.
        case keptOtherChange(conflicts: [FeedMergeConflict])
    }

    /// Under the lock: writes `new` if the file still holds `expected`; otherwise merges into the file the
    /// change that turned `expected` into `new` (`FeedMerge`, with `expected` as the base), so that
    /// whatever another writer did meanwhile stays.
    /// - Parameters:
    ///   - expected: the bytes `new` was computed from (what the file held when the command read it).
    ///   - new: the bytes to write.
    /// - Returns: what was done.
    /// - Throws: ``LocalFeedFileError``.
    public func replace(expecting expected: [UInt8], with new: [UInt8]) throws(LocalFeedFileError) -> Replacement {
        do {
            return try withLock {
                let current = try read()
                if current == new { return .replaced }
                if current == expected {
                    try write(new)
                    return .replaced
                }
                let merge = FeedMerge(base: Feed(bytes: expected), ours: Feed(bytes: current), theirs: Feed(bytes: new))
                guard let merged = merge.feed else { return .keptOtherChange(conflicts: merge.conflicts) }
                if merged.bytes != current { try write(merged.bytes) }
                return .merged(merged.bytes)
            }
        } catch let error as LocalFeedFileError {
            throw error
        } catch {
            throw .unwritable(path: path, reason: "\(error)")
        }
    }

    /// Runs `body` holding the file's lock.
    /// - Parameter body: the work; it must not take the lock again.
    /// - Returns: what `body` returned.
    /// - Throws: ``LocalFeedFileError/locked(path:holder:waited:)``, ``LocalFeedFileError/lockFailed(path:reason:)``,
    ///   or what `body` throws.
    public func withLock<Value>(_ body: () throws -> Value) throws -> Value {
        let lock: FileLock
        do {
            lock = try FileLock.acquire(for: path, waitingAtMost: lockWait, holder: holder)
        } catch {
            switch error {
            case .timedOut(_, let holder, let waited):
                throw LocalFeedFileError.locked(path: path, holder: holder, waited: waited)
            case .system(let failure):
                throw LocalFeedFileError.lockFailed(path: path, reason: failure.description)
            }
        }
        defer { lock.release() }
        return try body()
    }

    /// Replaces the file atomically (its mode and owner kept, a symbolic link followed), refusing a
    /// read-only file as an editor would.
    private func write(_ bytes: [UInt8]) throws(LocalFeedFileError) {
        if AtomicFile.isReadOnly(path) { throw .readOnly(path: path) }
        do {
            try AtomicFile.write(bytes, to: path, permissions: nil, symbolicLinks: .follow)
        } catch {
            throw .unwritable(path: path, reason: error.description)
        }
    }
}

/// Why a local feed file could not be read or changed.
public enum LocalFeedFileError: Error, Sendable, Equatable, LocalizedError {
    /// There is no file at the path.
    case noFile(path: String)
    /// The file cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is read-only (no write permission for anyone, or not for this user).
    case readOnly(path: String)
    /// The file cannot be replaced.
    case unwritable(path: String, reason: String)
    /// Another writer held the file's lock for the whole wait; `holder` is what it wrote about itself
    /// (`orgsocial post (pid 123, since …)`), or empty.
    case locked(path: String, holder: String, waited: Duration)
    /// The lock file cannot be opened or locked.
    case lockFailed(path: String, reason: String)
    /// The file changed under each of `attempts` edits (a program that takes no lock kept saving it).
    case keptChanging(path: String, attempts: Int)

    /// What went wrong.
    public var errorDescription: String? {
        switch self {
        case .noFile(let path):
            return "There is no file at \(path)."
        case .unreadable(let path, let reason):
            return "\(path) cannot be read: \(reason)."
        case .readOnly(let path):
            return "\(path) is read-only; nothing was written."
        case .unwritable(let path, let reason):
            return "\(path) cannot be written: \(reason); it was left as it was."
        case .locked(let path, let holder, let waited):
            let who = holder.isEmpty ? "another writer" : holder
            return "\(path) is being changed by \(who); gave up after waiting \(waited.wholeSeconds) s, and "
                + "nothing was written."
        case .lockFailed(let path, let reason):
            return "The lock file of \(path) cannot be used: \(reason)."
        case .keptChanging(let path, let attempts):
            return "\(path) changed during each of \(attempts) attempts to edit it; nothing was written. Try again "
                + "when nothing else is saving it."
        }
    }
}

extension Duration {
    /// The duration in whole seconds, rounded up (a wait of 0.5 s reads "1 s").
    fileprivate var wholeSeconds: Int64 {
        let parts = components
        return parts.seconds + (parts.attoseconds > 0 ? 1 : 0)
    }
}
