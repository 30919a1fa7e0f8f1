import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An exclusive advisory lock on a file, held through a lock file beside it (`flock(2)`).
///
/// The lock file is `.<name>.lock` in the folder of the file the path resolves to (symbolic links are
/// followed, so two paths to one file share one lock). Locking the file itself would not do: an editor
/// that saves by renaming a new file over the old one, and ``AtomicFile`` itself, replace the inode the
/// lock would be on. The lock file is never removed (removing it would let two writers lock two
/// different inodes); it holds one line saying who holds the lock, which the next writer quotes when it
/// gives up waiting.
///
/// `flock` locks belong to an open file description, so two locks taken in one process exclude each
/// other just as two processes do, and the kernel releases a lock when its holder dies.
///
/// ```swift
/// let lock = try FileLock.acquire(for: "social.org", waitingAtMost: .seconds(10), holder: "orgsocial post")
/// defer { lock.release() }
/// ```
package final class FileLock: Sendable {
    /// The lock file.
    package let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Why a lock could not be taken.
    package enum Failure: Error, Sendable, Equatable {
        /// Another writer held the lock for the whole wait; `holder` is what it wrote in the lock file
        /// (empty when it wrote nothing readable).
        case timedOut(lockPath: String, holder: String, waited: Duration)
        /// The lock file could not be opened or locked.
        case system(SystemCallError)
    }

    /// The lock file of `path`: `.<name>.lock` beside the file the path resolves to.
    /// - Parameter path: the file to be locked (it need not exist).
    /// - Returns: the lock file's path.
    package static func lockPath(for path: String) -> String {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let (folder, name) = AtomicFile.split(resolved)
        return (folder == "/" ? "" : folder) + "/." + name + ".lock"
    }

    /// Takes the lock of `path`, waiting up to `wait` while another writer holds it.
    /// - Parameters:
    ///   - path: the file to be locked.
    ///   - wait: how long to wait for another holder; zero tries once.
    ///   - holder: who takes it, in words (`orgsocial post`); written with the process ID and the time.
    /// - Returns: the held lock; it is released by ``release()`` or when the value is freed.
    /// - Throws: ``Failure``.
    package static func acquire(for path: String, waitingAtMost wait: Duration, holder: String) throws(Failure)
        -> FileLock
    {
        let since = ISO8601DateFormatter().string(from: Date())
        return try acquire(
            lockFile: lockPath(for: path), waitingAtMost: wait, record: "\(holder) (pid \(getpid()), since \(since))")
    }

    /// Takes the lock of the lock file `lockFile` itself (created with `permissions` when missing), waiting up to
    /// `wait` while another holder has it, and writes `record` into it for the next one to quote.
    /// - Parameters:
    ///   - lockFile: the lock file.
    ///   - permissions: the mode of a new lock file.
    ///   - wait: how long to wait for another holder; zero tries once.
    ///   - record: one line saying who holds it.
    /// - Returns: the held lock.
    /// - Throws: ``Failure``; `timedOut` quotes the holder's record.
    package static func acquire(
        lockFile: String, permissions: UInt16 = 0o644, waitingAtMost wait: Duration, record: String
    ) throws(Failure) -> FileLock {
        let descriptor = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(permissions))
        guard descriptor >= 0 else { throw .system(SystemCallError(operation: "open", path: lockFile)) }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: wait)
        var pauseMilliseconds: UInt32 = 5
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else {
                let error = SystemCallError(operation: "flock", path: lockFile, code: code)
                close(descriptor)
                throw .system(error)
            }
            guard clock.now < deadline else {
                let holder = readHolder(descriptor)
                close(descriptor)
                throw .timedOut(lockPath: lockFile, holder: holder, waited: wait)
            }
            usleep(pauseMilliseconds * 1000)
            pauseMilliseconds = min(pauseMilliseconds * 2, 100)
        }
        let lock = FileLock(path: lockFile, descriptor: descriptor)
        lock.write(record: record)
        return lock
    }

    /// Releases the lock (also done when the value is freed or the process ends).
    package func release() {
        flock(descriptor, LOCK_UN)
    }

    /// Writes `record` as the lock file's one line; best effort.
    private func write(record: String) {
        let line = Array((record + "\n").utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The first line of the lock file, at most 200 bytes, without control characters.
    private static func readHolder(_ descriptor: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 200)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return "" }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        return String(line.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init))
    }
}
