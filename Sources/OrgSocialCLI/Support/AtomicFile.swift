import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Replaces a file's content atomically: readers see the old file or the new one, never a mix, and a
/// failure leaves the old file untouched.
///
/// The bytes go to a temporary file in the same folder, which is flushed to disk (`fsync`) and then
/// renamed over the target. An existing file keeps its permission bits (and its owner, when allowed); a
/// symbolic link is followed, so the file it points to is replaced and the link stays.
enum AtomicFile {
    /// Writes `bytes` to `path`.
    /// - Parameters:
    ///   - bytes: the complete new content.
    ///   - path: the file to create or replace.
    ///   - permissions: the new file's permission bits (e.g. `0o600` for secrets); `nil` keeps an existing
    ///     file's bits and gives a new file the default ones.
    /// - Throws: ``CLIError/readOnlyFile(path:)`` when the file exists and is read-only (see
    ///   ``checkWritable(_:)``), ``CLIError/cannotWrite(path:reason:)`` naming the path and the system's reason.
    static func write(_ bytes: [UInt8], to path: String, permissions: UInt16? = nil) throws {
        try checkWritable(path)
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            try writePOSIX(bytes, to: target, reportedAs: path, permissions: permissions.map { mode_t($0) })
        #else
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: target), options: .atomic)
            } catch {
                throw CLIError.cannotWrite(path: path, reason: error.localizedDescription)
            }
        #endif
    }

    /// Refuses to replace a read-only file, as editors do: the atomic rename would otherwise replace it
    /// whatever its mode.
    ///
    /// A file is read-only when no one has write permission on it (no `w` bit at all, which even root
    /// respects here, as `vi` and `emacs` warn), or when `access(W_OK)` says this user may not write it.
    /// A file that does not exist yet is not checked (the folder decides).
    /// - Parameter path: the file (a symbolic link is followed).
    /// - Throws: ``CLIError/readOnlyFile(path:)``.
    static func checkWritable(_ path: String) throws {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
            let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
            var status = stat()
            guard stat(target, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return }
            if status.st_mode & 0o222 == 0 || access(target, W_OK) != 0 {
                throw CLIError.readOnlyFile(path: path)
            }
        #else
            if FileManager.default.fileExists(atPath: path), !FileManager.default.isWritableFile(atPath: path) {
                throw CLIError.readOnlyFile(path: path)
            }
        #endif
    }

    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        private static func writePOSIX(
            _ bytes: [UInt8], to target: String, reportedAs path: String, permissions: mode_t?
        ) throws {
            func failure(_ what: String) -> CLIError {
                CLIError.cannotWrite(path: path, reason: "\(what) failed: \(String(cString: strerror(errno)))")
            }
            let folder = (target as NSString).deletingLastPathComponent
            let directory = folder.isEmpty ? "." : folder
            let name = (target as NSString).lastPathComponent
            var existing = stat()
            let exists = stat(target, &existing) == 0
            let temporary = "\(directory)/.\(name).\(UUID().uuidString.prefix(8)).tmp"

            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw failure("Creating a temporary file in '\(directory)'") }
            var finished = false
            defer {
                if !finished {
                    close(descriptor)
                    unlink(temporary)
                }
            }
            if let permissions {
                guard fchmod(descriptor, permissions) == 0 else { throw failure("Setting permissions") }
                if exists { _ = fchown(descriptor, existing.st_uid, existing.st_gid) }
            } else if exists {
                // Same permissions as before; keeping the owner only works for root and is best effort.
                guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else { throw failure("Setting permissions") }
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { buffer in
                    systemWrite(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset)
                }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw failure("Writing")
                }
                offset += written
            }
            guard fsync(descriptor) == 0 else { throw failure("Flushing to disk") }
            guard close(descriptor) == 0 else {
                finished = true
                unlink(temporary)
                throw failure("Closing")
            }
            finished = true
            guard rename(temporary, target) == 0 else {
                let error = failure("Renaming the temporary file")
                unlink(temporary)
                throw error
            }
            // Make the rename itself durable; not every file system supports syncing a folder.
            let folderDescriptor = open(directory, O_RDONLY | O_CLOEXEC)
            if folderDescriptor >= 0 {
                _ = fsync(folderDescriptor)
                close(folderDescriptor)
            }
        }

        /// The C `write`, under a name that does not clash with ``write(_:to:)``.
        private static func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
            #if canImport(Darwin)
                Darwin.write(descriptor, buffer, count)
            #elseif canImport(Musl)
                Musl.write(descriptor, buffer, count)
            #else
                Glibc.write(descriptor, buffer, count)
            #endif
        }
    #endif
}
