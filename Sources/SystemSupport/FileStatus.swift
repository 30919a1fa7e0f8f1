#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stat(2)` says about a file, as far as a cache cares: which file it is and whether it changed.
///
/// Two statuses are equal when the device, inode, size, modification time and status-change time (both
/// to the nanosecond) are. A file replaced by `rename(2)` gets a new inode; one rewritten in place gets a
/// new change time, even within the same second.
package struct FileStatus: Sendable, Equatable {
    /// The device the file is on.
    package var device: UInt64
    /// The file's inode number.
    package var inode: UInt64
    /// The size in bytes.
    package var size: Int
    /// The modification time, whole seconds since 1970.
    package var modificationSeconds: Int
    /// The nanoseconds of the modification time.
    package var modificationNanoseconds: Int
    /// The status-change time, whole seconds since 1970.
    package var changeSeconds: Int
    /// The nanoseconds of the status-change time.
    package var changeNanoseconds: Int
    /// Whether it is a regular file.
    package var isRegularFile: Bool
    /// Whether it is a folder.
    package var isDirectory: Bool

    /// Takes the fields from a `stat` record.
    ///
    /// - Parameter info: What `stat`, `lstat` or `fstat` returned.
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        #if canImport(Darwin)
            modificationSeconds = Int(info.st_mtimespec.tv_sec)
            modificationNanoseconds = Int(info.st_mtimespec.tv_nsec)
            changeSeconds = Int(info.st_ctimespec.tv_sec)
            changeNanoseconds = Int(info.st_ctimespec.tv_nsec)
        #else
            modificationSeconds = Int(info.st_mtim.tv_sec)
            modificationNanoseconds = Int(info.st_mtim.tv_nsec)
            changeSeconds = Int(info.st_ctim.tv_sec)
            changeNanoseconds = Int(info.st_ctim.tv_nsec)
        #endif
        isRegularFile = (info.st_mode & S_IFMT) == S_IFREG
        isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The status of the file at `path` (symbolic links followed), or `nil` if there is none.
    ///
    /// - Parameter path: The file.
    /// - Returns: Its status, or `nil` when it (or a folder on the way) does not exist.
    /// - Throws: ``SystemCallError`` for failures other than "no such file" (permissions, I/O).
    package static func of(path: String) throws(SystemCallError) -> FileStatus? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "stat", path: path)
        }
        return FileStatus(info)
    }
}
