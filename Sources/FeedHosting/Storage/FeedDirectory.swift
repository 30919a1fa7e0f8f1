import Foundation
import SystemSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The node's root folder and the file operations on the feeds inside it.
///
/// Only ``FeedPath``s are ever turned into file paths, and a feed is only read if its real path (every
/// symbolic link resolved) is still inside the root's real path, so links that lead out of the root are
/// never followed. Writes replace files atomically (``AtomicFile``) and never follow a link out of the
/// root either: the target folder's real path is checked first, and the rename replaces a link named
/// `social.org` rather than writing through it.
struct FeedDirectory: Sendable {
    /// Why a feed cannot be read or written.
    enum AccessError: Error, Sendable, Equatable {
        /// The path leads out of the root through a symbolic link, or is not a regular file.
        case notServable(reason: String)
        /// A system call failed.
        case system(SystemCallError)
    }

    /// The root as given (made absolute).
    let rootPath: String
    /// The root with every symbolic link resolved.
    let resolvedRootPath: String

    /// Opens the root folder.
    ///
    /// - Parameter rootPath: The folder holding the feeds.
    /// - Throws: ``FeedHostingError/rootNotFound(path:)`` if it does not exist,
    ///   ``FeedHostingError/rootNotAFolder(path:)`` if it is something else than a folder.
    init(rootPath: String) throws(FeedHostingError) {
        let absolute =
            rootPath.hasPrefix("/")
            ? rootPath : FileManager.default.currentDirectoryPath + "/" + rootPath
        guard let resolved = Self.realPath(absolute), let status = try? FileStatus.of(path: resolved) else {
            throw .rootNotFound(path: rootPath)
        }
        guard status.isDirectory else { throw .rootNotAFolder(path: rootPath) }
        self.rootPath = Self.trimmingTrailingSlashes(absolute)
        self.resolvedRootPath = resolved
    }

    /// The file path of `feed`.
    func filePath(of feed: FeedPath) -> String {
        "\(rootPath)/\(feed.relativePath)"
    }

    /// The folder `feed` lives in.
    func folderPath(of feed: FeedPath) -> String {
        feed.folder.map { "\(rootPath)/\($0)" } ?? rootPath
    }

    /// The node's private folder, `<root>/.orgsocial`.
    var stateFolderPath: String { "\(rootPath)/.orgsocial" }

    // MARK: - Reading

    /// The status of `feed`'s file (links followed), or `nil` if it does not exist. One `stat` call: this
    /// is what every cached GET costs.
    func status(of feed: FeedPath) throws(AccessError) -> FileStatus? {
        do {
            return try FileStatus.of(path: filePath(of: feed))
        } catch {
            throw .system(error)
        }
    }

    /// Reads `feed` after checking that it is a regular file inside the root.
    ///
    /// - Returns: The bytes and the status they belong to, or `nil` if there is no such file.
    /// - Throws: ``AccessError/notServable(reason:)`` or ``AccessError/system(_:)``.
    func read(_ feed: FeedPath) throws(AccessError) -> (bytes: [UInt8], status: FileStatus)? {
        let path = filePath(of: feed)
        guard let resolved = Self.realPath(path) else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw .system(SystemCallError(operation: "realpath", path: path))
        }
        guard isInsideRoot(resolved) else { throw .notServable(reason: "it leads out of the root") }
        do {
            return try AtomicFile.read(resolved)
        } catch {
            if error.code == EISDIR { throw .notServable(reason: "it is not a regular file") }
            throw .system(error)
        }
    }

    // MARK: - Writing

    /// Replaces (or creates) `feed` with `bytes`, creating its folder if needed.
    ///
    /// - Returns: The status of the new file.
    /// - Throws: ``AccessError``; the old file is then unchanged.
    func write(_ bytes: [UInt8], to feed: FeedPath) throws(AccessError) -> FileStatus {
        let folder = folderPath(of: feed)
        if mkdir(folder, 0o755) == 0 {
            do {
                try AtomicFile.syncFolder(rootPath)
            } catch {
                throw .system(error)
            }
        } else if errno != EEXIST {
            throw .system(SystemCallError(operation: "mkdir", path: folder))
        }
        guard let resolvedFolder = Self.realPath(folder),
            isInsideRoot(resolvedFolder) || resolvedFolder == resolvedRootPath
        else { throw .notServable(reason: "its folder leads out of the root") }
        let path = "\(resolvedFolder)/\(FeedPath.fileName)"
        do throws(SystemCallError) {
            try AtomicFile.write(bytes, to: path, permissions: 0o644, symbolicLinks: .replace)
            guard let status = try FileStatus.of(path: path) else {
                throw SystemCallError(operation: "stat", path: path, code: ENOENT)
            }
            return status
        } catch {
            throw .system(error)
        }
    }

    /// Removes `feed`'s file, and its folder if that is then empty.
    ///
    /// - Throws: ``AccessError/system(_:)`` if the file cannot be removed.
    func remove(_ feed: FeedPath) throws(AccessError) {
        do {
            try AtomicFile.remove(filePath(of: feed))
        } catch {
            throw .system(error)
        }
        if feed.folder != nil {
            // Fails harmlessly when the folder holds other files.
            _ = rmdir(folderPath(of: feed))
        }
    }

    // MARK: - Listing and cleaning

    /// Every feed file under the root (`social.org` and `*/social.org`, skipping dot-folders), sorted.
    func feeds() -> [FeedPath] {
        var found: [FeedPath] = []
        if (try? status(of: .top))??.isRegularFile == true {
            found.append(.top)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rootPath)) ?? []
        for name in names.sorted() {
            guard let feed = FeedPath(folder: name), (try? status(of: feed))??.isRegularFile == true else { continue }
            found.append(feed)
        }
        return found
    }

    /// Removes temporary files left by writes that a crash interrupted.
    ///
    /// - Returns: The paths removed.
    func sweepTemporaryFiles() -> [String] {
        var folders = [rootPath]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rootPath)) ?? []
        folders += names.filter { FeedPath.isAllowedFolderName($0) }.map { "\(rootPath)/\($0)" }
        var removed: [String] = []
        for folder in folders {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            for entry in entries where AtomicFile.isTemporaryName(entry, for: FeedPath.fileName) {
                let path = "\(folder)/\(entry)"
                if unlink(path) == 0 {
                    removed.append(path)
                }
            }
        }
        return removed
    }

    // MARK: - Paths

    private func isInsideRoot(_ resolvedPath: String) -> Bool {
        resolvedPath.hasPrefix(resolvedRootPath == "/" ? "/" : resolvedRootPath + "/")
    }

    /// `realpath(3)`, or `nil` with `errno` set.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1, trimmed.hasSuffix("/") {
            trimmed.removeLast()
        }
        return trimmed
    }
}
