#if canImport(Glibc)
    import Glibc
#endif

/// What `stat(2)` says about a file, as far as the feed cache cares: which file it is and whether it
/// changed.
///
/// Two statuses are equal when the device, inode, size, modification time and status-change time (both
/// to the nanosecond) are. A file replaced by `rename(2)` gets a new inode; one rewritten in place gets a
/// new change time, even within the same second.
struct FileStatus: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modificationSeconds: Int
    var modificationNanoseconds: Int
    var changeSeconds: Int
    var changeNanoseconds: Int
    var isRegularFile: Bool
    var isDirectory: Bool

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        modificationSeconds = Int(info.st_mtim.tv_sec)
        modificationNanoseconds = Int(info.st_mtim.tv_nsec)
        changeSeconds = Int(info.st_ctim.tv_sec)
        changeNanoseconds = Int(info.st_ctim.tv_nsec)
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The status of the file at `path` (symbolic links followed), or `nil` if there is none.
    ///
    /// - Throws: ``SystemCallError`` for failures other than "no such file" (permissions, I/O).
    static func of(path: String) throws(SystemCallError) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "stat", path: path)
        }
        return FileStatus(info)
    }
}

/// A failed system call: which one, on which path, and `strerror(errno)`.
struct SystemCallError: Error, Sendable, Equatable, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32
    var message: String

    /// Captures `errno` right after the failed call.
    init(operation: String, path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
        self.message = String(cString: strerror(code))
    }

    var description: String { "\(operation) failed: \(message)" }
}
