import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One bridge run at a time per state file: an exclusive `flock` on `<state>.lock`.
///
/// The kernel drops the lock when its holder's file descriptor closes, which happens when the process
/// ends however it ends (`kill -9` included), so a crashed run never leaves a stale lock; the file itself
/// stays and only says which process last held it.
///
/// ```swift
/// let lock = try await BridgeRunLock.acquire(statePath: state.path, waitingUpTo: .seconds(30))
/// defer { lock.release() }
/// ```
public final class BridgeRunLock: Sendable {
    /// The lock file's path.
    public let path: String
    /// The held lock (SystemSupport's one `flock` lock); `nil` once released.
    private let lock: Mutex<FileLock?>

    private init(path: String, lock: FileLock) {
        self.path = path
        self.lock = Mutex(lock)
    }

    /// The lock file of a state file: `<state>.lock`.
    /// - Parameter statePath: the state file's path.
    /// - Returns: the lock file's path.
    public static func lockPath(forState statePath: String) -> String { statePath + ".lock" }

    /// Takes the lock, waiting while another holder has it.
    /// - Parameters:
    ///   - statePath: the state file whose runs are serialized.
    ///   - wait: how long to wait at most; zero tries once.
    ///   - pollInterval: how often to try again while waiting.
    /// - Returns: the held lock.
    /// - Throws: ``BridgeError/busy(lockPath:holder:waited:)`` when the lock stayed held;
    ///   ``BridgeError/cannotLock(lockPath:reason:)`` when the file cannot be opened or locked;
    ///   `CancellationError` when the task is cancelled while waiting.
    public static func acquire(
        statePath: String, waitingUpTo wait: Duration = .zero, pollInterval: Duration = .milliseconds(100)
    ) async throws -> BridgeRunLock {
        let path = lockPath(forState: statePath)
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        // Tried once at a time, so that the wait is a task's sleep, which cancellation ends.
        while true {
            do {
                let lock = try FileLock.acquire(
                    lockFile: path, permissions: 0o600, waitingAtMost: .zero, record: "\(getpid())")
                return BridgeRunLock(path: path, lock: lock)
            } catch {
                switch error {
                case .system(let failure):
                    throw BridgeError.cannotLock(lockPath: path, reason: failure.message)
                case .timedOut(_, let holder, _):
                    guard clock.now < deadline else {
                        let pid = holder.isEmpty || !holder.allSatisfy(\.isNumber) ? nil : holder
                        throw BridgeError.busy(lockPath: path, holder: pid, waited: wait)
                    }
                }
            }
            try await Task.sleep(for: min(pollInterval, deadline - clock.now))
        }
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool { lock.withLock { $0 != nil } }

    /// Releases the lock; calling it again does nothing.
    public func release() {
        lock.withLock { held in
            held?.release()
            held = nil
        }
    }
}
