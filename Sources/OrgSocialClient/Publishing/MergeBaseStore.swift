import Crypto
public import Foundation
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The merge base of each local feed file: the version *that file* last agreed on with its remote feed
/// (what it last published, or what a sync left in both places), kept per file and feed URL.
///
/// Keeping it per file, not per feed URL, is what makes a sync safe with several copies of a file: a
/// post another copy published is absent from this file's base, so the merge keeps it, and only a post
/// that this file once had and no longer has is deleted from the remote feed.
///
/// Each file and URL pair has a key, the SHA-256 of the file's real path (symbolic links resolved) and
/// the URL. Under the store's folder, `<key>.org` is a copy of the base and `<key>.json` says which
/// file, URL and SHA-256 it is for; a copy that does not match its digest is ignored. After a merge
/// that stopped on conflicts, `<key>.ours.org` and `<key>.theirs.org` keep the two versions it showed
/// (see `FeedMerge.ShownConflicts`). The feed a host creates at sign-up, which nobody wrote, is
/// remembered per URL in `starting/<SHA-256 of the URL>`, so that the first upload may replace it.
///
/// Failing to record a base is reported (``MergeBaseStoreError``) for the caller to warn about; the next
/// sync then merges without a base, which never deletes.
public struct MergeBaseStore: Sendable {
    /// The folder, or `nil` when there is nowhere to keep anything.
    public let folder: String?

    /// A store in `folder`.
    /// - Parameter folder: where to keep the bases; `nil` keeps nothing.
    public init(folder: String?) {
        self.folder = folder
    }

    /// The store of an environment: `$XDG_STATE_HOME/orgsocial/bases`, else
    /// `~/.local/state/orgsocial/bases`, else none.
    /// - Parameter environment: the environment variables.
    public init(environment: [String: String]) {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            folder = state + "/orgsocial/bases"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            folder = home + "/.local/state/orgsocial/bases"
        } else {
            folder = nil
        }
    }

    // MARK: - Bases

    /// The base of a file for a feed URL, if one was recorded and its copy is intact.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - feedURL: the feed's URL.
    /// - Returns: The base's bytes, or `nil`.
    public func base(ofFile path: String, at feedURL: URL) -> [UInt8]? {
        guard let stem = stem(path, feedURL),
            let record = try? JSONDecoder().decode(
                Record.self, from: Data(contentsOf: URL(fileURLWithPath: stem + ".json"))),
            let bytes = try? AtomicFile.read(stem + ".org")?.bytes,
            SHA256.hexHash(bytes) == record.sha256
        else { return nil }
        return bytes
    }

    /// Records `bytes` as what a file and its remote feed now both hold, and forgets any conflicts shown.
    ///
    /// A base that cannot be saved is not fatal (the next sync merges without one, which never deletes,
    /// but `publish` then takes the file for one that never published), so the caller is told, to warn.
    /// - Parameters:
    ///   - bytes: the feed as published (and written to the file).
    ///   - path: the local feed file.
    ///   - feedURL: the feed's URL.
    /// - Throws: ``MergeBaseStoreError/cannotSave(folder:reason:)`` when the base could not be written.
    public func record(_ bytes: [UInt8], ofFile path: String, at feedURL: URL) throws(MergeBaseStoreError) {
        guard let folder else {
            throw .cannotSave(folder: "", reason: "neither XDG_STATE_HOME nor HOME is set to an absolute path")
        }
        guard let stem = stem(path, feedURL, creatingFolder: true) else {
            throw .cannotSave(folder: folder, reason: "the folder cannot be created")
        }
        let record = Record(file: Self.realPath(path), feedURL: feedURL.absoluteString, sha256: SHA256.hexHash(bytes))
        do {
            try AtomicFile.write(bytes, to: stem + ".org", permissions: 0o600, symbolicLinks: .replace)
            try AtomicFile.write(record.json, to: stem + ".json", permissions: 0o600, symbolicLinks: .replace)
        } catch {
            throw .cannotSave(folder: folder, reason: error.description)
        }
        try? AtomicFile.remove(stem + ".ours.org")
        try? AtomicFile.remove(stem + ".theirs.org")
    }

    // MARK: - Conflicts shown

    /// Remembers the two versions whose conflicts were just shown for a file.
    /// - Parameters:
    ///   - ours: the local version.
    ///   - theirs: the remote version.
    ///   - path: the local feed file.
    ///   - feedURL: the feed's URL.
    public func recordShownConflicts(ours: [UInt8], theirs: [UInt8], ofFile path: String, at feedURL: URL) {
        guard let stem = stem(path, feedURL, creatingFolder: true) else { return }
        try? AtomicFile.write(ours, to: stem + ".ours.org", permissions: 0o600, symbolicLinks: .replace)
        try? AtomicFile.write(theirs, to: stem + ".theirs.org", permissions: 0o600, symbolicLinks: .replace)
    }

    /// The versions whose conflicts were last shown for a file, if any.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - feedURL: the feed's URL.
    /// - Returns: Both versions, or `nil`.
    public func shownConflicts(ofFile path: String, at feedURL: URL) -> (ours: [UInt8], theirs: [UInt8])? {
        guard let stem = stem(path, feedURL),
            let ours = try? AtomicFile.read(stem + ".ours.org")?.bytes,
            let theirs = try? AtomicFile.read(stem + ".theirs.org")?.bytes
        else { return nil }
        return (ours, theirs)
    }

    // MARK: - A host's starting feed

    /// Remembers the feed a host created at sign-up, which an upload may replace.
    /// - Parameters:
    ///   - bytes: the feed as the host serves it.
    ///   - feedURL: its URL.
    public func recordStartingFeed(_ bytes: [UInt8], at feedURL: URL) {
        guard let path = startingPath(feedURL, creatingFolder: true) else { return }
        try? AtomicFile.write(
            Array((SHA256.hexHash(bytes) + "\n").utf8), to: path, permissions: 0o600, symbolicLinks: .replace)
    }

    /// Whether `bytes` are the feed a host created at sign-up for `feedURL`, untouched since.
    /// - Parameters:
    ///   - bytes: the remote feed now.
    ///   - feedURL: its URL.
    /// - Returns: `true` when they are.
    public func isStartingFeed(_ bytes: [UInt8], at feedURL: URL) -> Bool {
        guard let path = startingPath(feedURL), let recorded = try? AtomicFile.read(path)?.bytes else { return false }
        return String(decoding: recorded, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            == SHA256.hexHash(bytes)
    }

    // MARK: - Places

    /// What `<key>.json` holds.
    private struct Record: Codable {
        var file: String
        var feedURL: String
        var sha256: String

        /// The record as one line of JSON (keys in a fixed order, for people who read it).
        var json: [UInt8] {
            func quoted(_ text: String) -> String {
                String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
            }
            return Array(
                "{\"file\":\(quoted(file)),\"feedURL\":\(quoted(feedURL)),\"sha256\":\(quoted(sha256))}\n".utf8)
        }
    }

    /// `<folder>/<key>` for a file and URL.
    private func stem(_ path: String, _ feedURL: URL, creatingFolder: Bool = false) -> String? {
        guard let folder else { return nil }
        if creatingFolder, !Self.createFolder(folder) { return nil }
        return folder + "/" + SHA256.hexHash(Array((Self.realPath(path) + "\n" + feedURL.absoluteString).utf8))
    }

    private func startingPath(_ feedURL: URL, creatingFolder: Bool = false) -> String? {
        guard let folder else { return nil }
        let starting = folder + "/starting"
        if creatingFolder, !Self.createFolder(starting) { return nil }
        return starting + "/" + SHA256.hexHash(Array(feedURL.absoluteString.utf8))
    }

    /// `<folder>/registered/<hash of the feed and relay>`, the mark of a registration.
    func registrationPath(_ feedURL: URL, _ relay: URL, creatingFolder: Bool = false) -> String? {
        guard let folder else { return nil }
        let registered = folder + "/registered"
        if creatingFolder, !Self.createFolder(registered) { return nil }
        return registered + "/" + SHA256.hexHash(Array((feedURL.absoluteString + "\n" + relay.absoluteString).utf8))
    }

    private static func createFolder(_ folder: String) -> Bool {
        (try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil
    }

    /// The file's absolute path with symbolic links and `.`/`..` resolved (`realpath`), or the
    /// standardized absolute path when the file does not exist.
    static func realPath(_ path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        return URL(fileURLWithPath: path).standardizedFileURL.path
    }
}

/// Why a merge base could not be kept.
public enum MergeBaseStoreError: Error, Sendable, Equatable, LocalizedError {
    /// The base could not be written in `folder` (empty when there is no folder at all).
    case cannotSave(folder: String, reason: String)

    /// What went wrong, and what it means for the next publish.
    public var errorDescription: String? {
        switch self {
        case .cannotSave(let folder, let reason):
            let place = folder.isEmpty ? "" : " in \(folder)"
            return "The record of what was published (the merge base) could not be saved\(place): \(reason). "
                + "The change itself is saved and published, but the next publish will take this file for one "
                + "that never published."
        }
    }
}
