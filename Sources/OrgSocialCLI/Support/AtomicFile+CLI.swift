import Foundation
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The CLI's use of ``AtomicFile``: a feed or settings file is replaced as an editor would replace it.
///
/// An existing file keeps its permission bits (and its owner, when allowed); a symbolic link is followed,
/// so the file it points to is replaced and the link stays; a read-only file is refused.
extension AtomicFile {
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
        do {
            try write(bytes, to: path, permissions: permissions, symbolicLinks: .follow)
        } catch {
            throw CLIError.cannotWrite(path: path, reason: "\(step(error)) failed: \(error.message)")
        }
    }

    /// Refuses to replace a read-only file (``isReadOnly(_:)``), as editors do.
    /// - Parameter path: the file (a symbolic link is followed).
    /// - Throws: ``CLIError/readOnlyFile(path:)``.
    static func checkWritable(_ path: String) throws {
        if isReadOnly(path) { throw CLIError.readOnlyFile(path: path) }
    }

    /// The step of an atomic write that a failed system call belongs to, in words.
    private static func step(_ error: SystemCallError) -> String {
        switch error.operation {
        case "open": "Creating a temporary file in '\(split(error.path).folder)'"
        case "fchmod": "Setting permissions"
        case "write": "Writing"
        case "fsync": "Flushing to disk"
        case "close": "Closing"
        case "rename": "Renaming the temporary file"
        default: error.operation
        }
    }
}
