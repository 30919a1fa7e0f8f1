import Foundation
import Synchronization

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
    /// The open descriptor holding the lock; `nil` once released.
    private let descriptor: Mutex<Int32?>

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = Mutex(descriptor)
    }

    deinit {
        release()
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
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw BridgeError.cannotLock(lockPath: path, reason: String(cString: strerror(errno)))
        }
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { break }
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                close(descriptor)
                throw BridgeError.cannotLock(lockPath: path, reason: String(cString: strerror(failure)))
            }
            guard clock.now < deadline else {
                let holder = holderText(descriptor)
                close(descriptor)
                throw BridgeError.busy(lockPath: path, holder: holder, waited: wait)
            }
            do {
                try await Task.sleep(for: min(pollInterval, deadline - clock.now))
            } catch {
                close(descriptor)
                throw error
            }
        }
        let record = Array("\(getpid())\n".utf8)
        if ftruncate(descriptor, 0) == 0 {
            _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
        return BridgeRunLock(path: path, descriptor: descriptor)
    }

    /// Whether this object still holds the lock.
    public var isHeld: Bool { descriptor.withLock { $0 != nil } }

    /// Releases the lock; calling it again does nothing.
    public func release() {
        descriptor.withLock { held in
            guard let open = held else { return }
            flock(open, LOCK_UN)
            close(open)
            held = nil
        }
    }

    /// The process ID the current holder wrote into the file, if readable.
    private static func holderText(_ descriptor: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty || !text.allSatisfy(\.isNumber) ? nil : text
    }
}
