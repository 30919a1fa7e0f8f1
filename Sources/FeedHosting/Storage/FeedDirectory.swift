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
/// `social.org` rather than writing through it. Nothing under the node's state folder (`.orgsocial/`) is
/// ever read or written as a feed, whatever links lead there; a write is authorised for the feed it really
/// lands in (``realFeed(of:)``), so a linked folder cannot borrow another feed's token.
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
        guard !isInStateFolder(resolved) else { throw .notServable(reason: "it leads into the state folder") }
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
        guard !isInStateFolder(resolvedFolder) else {
            throw .notServable(reason: "its folder leads into the state folder")
        }
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

    /// Every real feed file under the root (`social.org` and `*/social.org`, skipping dot-folders), sorted:
    /// a regular file that is itself, not a link to one or a file in a linked folder.
    func feeds() -> [FeedPath] {
        var found: [FeedPath] = []
        if isRealFeedFile(.top) {
            found.append(.top)
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rootPath)) ?? []
        for name in names.sorted() {
            guard let feed = FeedPath(folder: name), isRealFeedFile(feed) else { continue }
            found.append(feed)
        }
        return found
    }

    /// Whether `feed`'s file is a regular file whose real path is its own path under the real root.
    private func isRealFeedFile(_ feed: FeedPath) -> Bool {
        guard (try? status(of: feed))??.isRegularFile == true,
            let resolved = Self.realPath(filePath(of: feed))
        else { return false }
        let expected = resolvedRootPath == "/" ? "/\(feed.relativePath)" : "\(resolvedRootPath)/\(feed.relativePath)"
        return resolved == expected
    }

    /// The feed a write to `feed` really lands in, every link of its folder resolved: `feed` itself when
    /// its folder is real or does not exist yet, the linked feed when the folder is a link to another
    /// folder of the root (or to the root), and `nil` when the folder leads anywhere else (out of the
    /// root, into the state folder, deeper than one level). Tokens are checked against this feed.
    ///
    /// (A link named `social.org` is replaced by a write, never written through, so only the folder counts.)
    func realFeed(of feed: FeedPath) -> FeedPath? {
        let folder = folderPath(of: feed)
        guard let resolved = Self.realPath(folder) else {
            // No such folder yet: a write creates a real one. A dangling link fails the write itself.
            return errno == ENOENT ? feed : nil
        }
        if resolved == resolvedRootPath { return .top }
        guard isInsideRoot(resolved), !isInStateFolder(resolved) else { return nil }
        let prefix = resolvedRootPath == "/" ? "/" : resolvedRootPath + "/"
        let name = String(resolved.dropFirst(prefix.count))
        guard !name.contains("/") else { return nil }
        return FeedPath(folder: name)
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

    /// Whether a resolved path is the node's state folder or inside it (the folder itself resolved too,
    /// in case it is a link).
    private func isInStateFolder(_ resolvedPath: String) -> Bool {
        let candidates =
            [resolvedRootPath == "/" ? "/.orgsocial" : resolvedRootPath + "/.orgsocial"]
            + [Self.realPath(stateFolderPath)].compactMap { $0 }
        return candidates.contains { resolvedPath == $0 || resolvedPath.hasPrefix($0 + "/") }
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
