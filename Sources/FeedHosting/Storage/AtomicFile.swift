#if canImport(Glibc)
    import Glibc
#endif

/// Replaces files atomically: readers and a crash see either the old file or the new one, never a mix.
///
/// The bytes go to a temporary file in the same folder (named `.<name>.XXXXXX`, created with
/// `mkstemp`), which is written in full, `fsync`ed, given its mode, and renamed over the target; then
/// the folder is `fsync`ed so the rename itself survives a power cut. On any failure the temporary file
/// is removed and the target is untouched. A process killed between the first write and the rename
/// leaves only the temporary file, which ``isTemporaryName(_:for:)`` recognises so that start-up can
/// sweep it away.
enum AtomicFile {
    /// Writes `bytes` to `path` atomically.
    ///
    /// - Parameters:
    ///   - bytes: The new contents.
    ///   - path: The file to create or replace; its folder must exist.
    ///   - mode: The permission bits of the new file, such as `0o644` or `0o600`.
    /// - Throws: ``SystemCallError`` naming the call that failed.
    static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SystemCallError) {
        let (folder, name) = split(path)
        var template = Array("\(folder)/.\(name).XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress.map { mkstemp($0) } ?? -1
        }
        guard descriptor >= 0 else { throw SystemCallError(operation: "mkstemp", path: folder) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        let temporaryPath = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var isRenamed = false
        defer {
            if !isRenamed {
                unlink(temporaryPath)
            }
        }
        do throws(SystemCallError) {
            try writeAll(bytes, to: descriptor, path: temporaryPath)
            guard fchmod(descriptor, mode) == 0 else { throw SystemCallError(operation: "fchmod", path: temporaryPath) }
            guard fsync(descriptor) == 0 else { throw SystemCallError(operation: "fsync", path: temporaryPath) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw SystemCallError(operation: "close", path: temporaryPath) }
        guard rename(temporaryPath, path) == 0 else { throw SystemCallError(operation: "rename", path: path) }
        isRenamed = true
        try syncFolder(folder)
    }

    /// Removes `path` and `fsync`s its folder; a missing file is not an error.
    ///
    /// - Parameter path: The file to remove.
    /// - Throws: ``SystemCallError`` if `unlink` fails for another reason.
    static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError(operation: "unlink", path: path) }
        try syncFolder(split(path).folder)
    }

    /// Whether `candidate` is a temporary file ``write(_:to:mode:)`` makes for a file called `name`.
    static func isTemporaryName(_ candidate: String, for name: String) -> Bool {
        let prefix = ".\(name)."
        return candidate.hasPrefix(prefix) && candidate.utf8.count == prefix.utf8.count + 6
    }

    /// `fsync`s a folder so that renames and removals in it are durable.
    static func syncFolder(_ folder: String) throws(SystemCallError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(operation: "open", path: folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SystemCallError(operation: "fsync", path: folder) }
    }

    /// Reads the whole file at `path`, or returns `nil` if it does not exist.
    ///
    /// - Returns: The bytes and the status of the file that was read (taken from the open descriptor, so
    ///   the two always belong together).
    /// - Throws: ``SystemCallError`` for failures other than "no such file".
    static func read(_ path: String) throws(SystemCallError) -> (bytes: [UInt8], status: FileStatus)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "open", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallError(operation: "fstat", path: path) }
        let status = FileStatus(info)
        guard status.isRegularFile else { throw SystemCallError(operation: "read", path: path, code: EISDIR) }
        var bytes = [UInt8](repeating: 0, count: status.size)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError(operation: "read", path: path) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        // The file may have grown since fstat: read on to the end of the file.
        var scratch = [UInt8](repeating: 0, count: 4096)
        while filled == status.size {
            let count = scratch.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError(operation: "read", path: path) }
            if count == 0 { break }
            bytes += scratch.prefix(count)
        }
        return (bytes, status)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemCallError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw SystemCallError(operation: "write", path: path) }
            offset += written
        }
    }

    /// Splits `path` into its folder (`.` when there is none) and its last component.
    static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }
}
