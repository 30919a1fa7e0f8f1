import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces files atomically: readers and a crash see either the old file or the new one, never a mix.
///
/// The bytes go to a temporary file in the same folder, named `.<name>.XXXXXX` and created exclusively
/// (`O_CREAT | O_EXCL | O_CLOEXEC`, retried under a new name if taken, as `mkstemp` does, but with mode
/// `0666` so that the umask gives a new file its usual bits). It is written in full, given its mode (and
/// the old file's owner, when allowed), `fsync`ed and renamed over the target; then the folder is
/// `fsync`ed so the rename itself survives a power cut. On any failure the temporary file is removed and
/// the target is untouched. A process killed between the first write and the rename leaves only the
/// temporary file, which ``isTemporaryName(_:for:)`` recognises so that start-up can sweep it away.
package enum AtomicFile {
    /// What ``write(_:to:permissions:symbolicLinks:)`` does when the path is a symbolic link.
    package enum SymbolicLinks: Sendable {
        /// Replace the file the link points to; the link stays (what an editor does).
        case follow
        /// Replace the link itself with a regular file (what a server that must not write outside its
        /// root does, after checking the folder).
        case replace
    }

    /// The characters of the temporary name's random suffix (those `mkstemp` uses).
    private static let suffixCharacters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Writes `bytes` to `path` atomically.
    ///
    /// - Parameters:
    ///   - bytes: The new contents.
    ///   - path: The file to create or replace; its folder must exist.
    ///   - permissions: The file's permission bits, such as `0o644` or `0o600`; `nil` keeps an existing
    ///     file's bits and gives a new file the default ones (`0666` less the umask).
    ///   - symbolicLinks: Whether a link at `path` is followed or replaced.
    /// - Throws: ``SystemCallError`` naming the call that failed (`open` on the temporary path when it
    ///   cannot be created).
    package static func write(
        _ bytes: [UInt8], to path: String, permissions: UInt16?, symbolicLinks: SymbolicLinks
    ) throws(SystemCallError) {
        let target: String
        var existing = stat()
        let exists: Bool
        switch symbolicLinks {
        case .follow:
            target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            exists = stat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
        case .replace:
            target = path
            exists = lstat(target, &existing) == 0 && (existing.st_mode & S_IFMT) == S_IFREG
        }
        let (folder, name) = split(target)
        let (descriptor, temporaryPath) = try createTemporaryFile(in: folder, for: name)
        var isRenamed = false
        defer {
            if !isRenamed {
                unlink(temporaryPath)
            }
        }
        do throws(SystemCallError) {
            try writeAll(bytes, to: descriptor, path: temporaryPath)
            if let mode = permissions.map({ mode_t($0) }) ?? (exists ? existing.st_mode & 0o7777 : nil) {
                guard fchmod(descriptor, mode) == 0 else {
                    throw SystemCallError(operation: "fchmod", path: temporaryPath)
                }
            }
            if exists {
                // Keeping the owner only works for root (or a group the user is in) and is best effort.
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
            guard fsync(descriptor) == 0 else { throw SystemCallError(operation: "fsync", path: temporaryPath) }
        } catch {
            close(descriptor)
            throw error
        }
        guard close(descriptor) == 0 else { throw SystemCallError(operation: "close", path: temporaryPath) }
        guard rename(temporaryPath, target) == 0 else { throw SystemCallError(operation: "rename", path: target) }
        isRenamed = true
        do throws(SystemCallError) {
            try syncFolder(folder)
        } catch {
            // Not every file system can sync a folder, and a folder may be writable but not readable.
            guard error.code == EINVAL || error.code == ENOTSUP || error.code == EACCES else { throw error }
        }
    }

    /// Removes `path` and `fsync`s its folder; a missing file is not an error.
    ///
    /// - Parameter path: The file to remove.
    /// - Throws: ``SystemCallError`` if `unlink` fails for another reason.
    package static func remove(_ path: String) throws(SystemCallError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw SystemCallError(operation: "unlink", path: path) }
        try syncFolder(split(path).folder)
    }

    /// Whether `candidate` is a temporary file ``write(_:to:permissions:symbolicLinks:)`` makes for a file
    /// called `name`.
    ///
    /// - Parameters:
    ///   - candidate: A file name found in the folder.
    ///   - name: The name of the file being written.
    /// - Returns: `true` for `.<name>.` followed by six characters.
    package static func isTemporaryName(_ candidate: String, for name: String) -> Bool {
        let prefix = ".\(name)."
        return candidate.hasPrefix(prefix) && candidate.utf8.count == prefix.utf8.count + 6
    }

    /// `fsync`s a folder so that renames and removals in it are durable.
    ///
    /// - Parameter folder: The folder.
    /// - Throws: ``SystemCallError`` if it cannot be opened or synced.
    package static func syncFolder(_ folder: String) throws(SystemCallError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemCallError(operation: "open", path: folder) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw SystemCallError(operation: "fsync", path: folder) }
    }

    /// Reads the whole file at `path`, or returns `nil` if it does not exist.
    ///
    /// The file is opened without blocking, so a named pipe with no writer never hangs the caller.
    ///
    /// - Parameters:
    ///   - path: The file (symbolic links followed).
    ///   - readsStreams: Whether a pipe, a character device or a socket (`/dev/stdin`, `/dev/null`, a shell's
    ///     `<(…)`) is read to its end as a stream; when `false` (for a file about to be replaced) it is
    ///     refused as any file that is not a regular one is.
    /// - Returns: The bytes and the status of the file that was read (taken from the open descriptor, so
    ///   the two always belong together).
    /// - Throws: ``SystemCallError`` for failures other than "no such file" (code `EISDIR` and the message
    ///   "not a regular file" when it is not a regular file, nor a stream that `readsStreams` lets through).
    package static func read(
        _ path: String, readsStreams: Bool = false
    ) throws(SystemCallError) -> (bytes: [UInt8], status: FileStatus)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw SystemCallError(operation: "open", path: path)
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemCallError(operation: "fstat", path: path) }
        let status = FileStatus(info)
        let kind = info.st_mode & S_IFMT
        let isStream = kind == S_IFIFO || kind == S_IFCHR || kind == S_IFSOCK
        // Reads block again once open: a pipe's writer is waited for from here, and one that has gone
        // (or never came) ends the stream.
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) == 0 else {
            throw SystemCallError(operation: "fcntl", path: path)
        }
        if isStream, readsStreams { return (try readToEnd(descriptor, path: path, from: []), status) }
        guard status.isRegularFile else {
            var error = SystemCallError(operation: "read", path: path, code: EISDIR)
            error.message = "not a regular file"
            throw error
        }
        var bytes = [UInt8](repeating: 0, count: status.size)
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { buffer in
                systemRead(descriptor, buffer.baseAddress.map { $0 + filled }, buffer.count - filled)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError(operation: "read", path: path) }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        // The file may have grown since fstat: read on to the end of the file.
        if filled == status.size { bytes = try readToEnd(descriptor, path: path, from: bytes) }
        return (bytes, status)
    }

    /// Reads `descriptor` to its end, after `bytes`.
    private static func readToEnd(
        _ descriptor: Int32, path: String, from bytes: [UInt8]
    ) throws(SystemCallError) -> [UInt8] {
        var bytes = bytes
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = scratch.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw SystemCallError(operation: "read", path: path) }
            if count == 0 { return bytes }
            bytes += scratch.prefix(count)
        }
    }

    /// Whether `path` is a read-only file, which an atomic rename would otherwise replace whatever its mode:
    /// no one has write permission on it (no `w` bit at all, which even root respects here, as `vi` and
    /// `emacs` warn), or `access(W_OK)` says this user may not write it. A file that does not exist yet is
    /// not read-only (its folder decides).
    /// - Parameter path: the file (a symbolic link is followed).
    /// - Returns: whether the file exists, is regular and may not be written.
    package static func isReadOnly(_ path: String) -> Bool {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var status = stat()
        guard stat(target, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return false }
        return status.st_mode & 0o222 == 0 || access(target, W_OK) != 0
    }

    /// Splits `path` into its folder (`.` when there is none) and its last component.
    ///
    /// - Parameter path: A file path.
    /// - Returns: The folder (`/` for a file at the root) and the name.
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    /// Creates `<folder>/.<name>.XXXXXX` exclusively, with a new random suffix while the name is taken.
    private static func createTemporaryFile(
        in folder: String, for name: String
    ) throws(SystemCallError) -> (descriptor: Int32, path: String) {
        var generator = SystemRandomNumberGenerator()
        while true {
            let suffix = (0..<6).map { _ in
                suffixCharacters[Int(generator.next(upperBound: UInt(suffixCharacters.count)))]
            }
            let path = "\(folder)/.\(name).\(String(decoding: suffix, as: UTF8.self))"
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, path) }
            guard errno == EEXIST else { throw SystemCallError(operation: "open", path: path) }
        }
    }
}

/// Writes all of `bytes` to `descriptor`, again after a partial write or `EINTR`, without copying them.
///
/// - Parameters:
///   - bytes: What to write.
///   - descriptor: An open file descriptor (`STDOUT_FILENO` for standard output).
///   - path: What the descriptor is, for the error.
/// - Throws: ``SystemCallError`` when `write` fails.
package func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemCallError) {
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBytes { buffer in
            systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
        }
        if written < 0, errno == EINTR { continue }
        guard written > 0 else { throw SystemCallError(operation: "write", path: path) }
        offset += written
    }
}

/// The C `write`, under a name that does not clash with ``AtomicFile/write(_:to:permissions:symbolicLinks:)``.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.write(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, buffer, count)
    #else
        Glibc.write(descriptor, buffer, count)
    #endif
}

/// The C `read`, under a name that does not clash with ``AtomicFile/read(_:)``.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
        Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
        Musl.read(descriptor, buffer, count)
    #else
        Glibc.read(descriptor, buffer, count)
    #endif
}
