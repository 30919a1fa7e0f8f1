import Crypto
import Foundation
import SystemSupport

/// What this machine last saw on each feed's server: the SHA-256 of the bytes it last published or
/// fetched there, by feed URL, and a copy of those bytes.
///
/// `orgsocial publish` uses it to tell "the remote feed changed since I last published" from "my copy is
/// newer"; `--publish` uses it to know that the local file holds nothing unpublished before replacing it
/// with the published feed; `orgsocial sync` uses the copy as the base of its three-way merge. The digests
/// live in `$XDG_STATE_HOME/orgsocial/published.json` (else `~/.local/state/orgsocial/published.json`),
/// the copies next to it in `published/<SHA-256 of the feed URL>.org`. Without `HOME` nothing is
/// remembered, and commands fall back to comparing with the server.
struct PublishedVersions {
    /// The state file, or `nil` when there is nowhere to keep it.
    let path: String?

    /// The state file of an environment.
    /// - Parameter environment: the environment variables.
    init(environment: [String: String]) {
        if let folder = environment["XDG_STATE_HOME"], folder.hasPrefix("/") {
            path = folder + "/orgsocial/published.json"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            path = home + "/.local/state/orgsocial/published.json"
        } else {
            path = nil
        }
    }

    /// The SHA-256 (hex) of `bytes`, as recorded.
    static func digest(of bytes: [UInt8]) -> String { SHA256.hexHash(bytes) }

    /// The digest recorded for a feed, if any.
    /// - Parameter feedURL: the feed's URL.
    /// - Returns: The digest, or `nil`.
    func digest(for feedURL: URL) -> String? {
        entries()[feedURL.absoluteString]
    }

    /// The bytes last recorded for a feed, when their copy is kept and matches the recorded digest.
    /// - Parameter feedURL: the feed's URL.
    /// - Returns: The bytes, or `nil`.
    func copy(for feedURL: URL) -> [UInt8]? {
        guard let path = copyPath(for: feedURL), let known = digest(for: feedURL),
            let data = FileManager.default.contents(atPath: path)
        else { return nil }
        let bytes = Array(data)
        return Self.digest(of: bytes) == known ? bytes : nil
    }

    /// Where the copy of a feed's bytes is kept.
    private func copyPath(for feedURL: URL) -> String? {
        guard let path else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        return folder + "/published/" + Self.digest(of: Array(feedURL.absoluteString.utf8)) + ".org"
    }

    /// Records the bytes now on a feed's server (their digest and a copy). Failing to record is not an
    /// error: the next command compares with the server instead.
    /// - Parameters:
    ///   - bytes: the feed's bytes as published.
    ///   - feedURL: the feed's URL.
    func record(_ bytes: [UInt8], for feedURL: URL) {
        guard let path else { return }
        var all = entries()
        all[feedURL.absoluteString] = Self.digest(of: bytes)
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if let copyPath = copyPath(for: feedURL) {
            try? FileManager.default.createDirectory(
                atPath: (copyPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try? AtomicFile.write(bytes, to: copyPath, permissions: 0o600)
        }
        guard let data = try? encoder.encode(all) else { return }
        try? AtomicFile.write(Array(data) + [UInt8(ascii: "\n")], to: path, permissions: 0o600)
    }

    private func entries() -> [String: String] {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
    }
}
