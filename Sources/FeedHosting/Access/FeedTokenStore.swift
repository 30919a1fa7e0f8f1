import Crypto
package import Foundation
import HTTPCore
import Synchronization
import SystemSupport

/// The bearer tokens that may PUT each feed, kept in a JSON file as SHA-256 hashes only.
///
/// A token is 32 random bytes written as 64 hex digits; it is shown once, by
/// ``issueToken(for:now:)``, and only its hash is stored, so a leaked token file lets nobody write.
/// The file (`<root>/.orgsocial/tokens.json` by default, mode 0600) looks like this:
///
/// ```json
/// {
///   "version": 1,
///   "tokens": [
///     { "feed": "alice/social.org", "sha256": "5e88…", "created": "2026-01-02T03:04:05Z" }
///   ]
/// }
/// ```
///
/// A feed may have several tokens (one per device, say). The server re-reads the file when it changes,
/// so tokens issued or revoked while it runs take effect at once.
package struct FeedTokenStore: Sendable {
    /// The token file.
    package let path: String

    /// Where the token file lives when `--token-file` is not given.
    ///
    /// - Parameter root: The node's root folder.
    /// - Returns: `<root>/.orgsocial/tokens.json`.
    package static func defaultPath(root: String) -> String {
        "\(root.hasSuffix("/") ? String(root.dropLast()) : root)/.orgsocial/tokens.json"
    }

    /// Uses the token file at `path` (which need not exist yet).
    ///
    /// - Parameter path: The token file.
    package init(path: String) {
        self.path = path
    }

    /// Creates a new token for `feed`, stores its hash, and returns the token.
    ///
    /// - Parameters:
    ///   - feed: The feed the token may write.
    ///   - now: The creation time recorded next to the hash.
    /// - Returns: The token, 64 lowercase hex digits. It cannot be recovered later.
    /// - Throws: ``FeedHostingError`` if the file cannot be read, parsed or written, or no random bytes
    ///   are available.
    package func issueToken(for feed: FeedPath, now: Date = Date()) throws(FeedHostingError) -> String {
        let token: String
        do {
            token = Hex.encode(try SecureRandom.bytes(count: 32))
        } catch {
            throw .randomUnavailable(reason: error.localizedDescription)
        }
        var entries = try load()
        entries.append(Entry(feed: feed.relativePath, sha256: Self.hash(token), created: StateFolder.timestamp(now)))
        try save(entries)
        return token
    }

    /// Removes every token of `feed`.
    ///
    /// - Parameter feed: The feed.
    /// - Returns: How many tokens were removed.
    /// - Throws: ``FeedHostingError`` if the file cannot be read, parsed or written.
    package func revokeTokens(for feed: FeedPath) throws(FeedHostingError) -> Int {
        let entries = try load()
        let kept = entries.filter { $0.feed != feed.relativePath }
        if kept.count != entries.count {
            try save(kept)
        }
        return entries.count - kept.count
    }

    /// The number of tokens stored for `feed`.
    ///
    /// - Parameter feed: The feed.
    /// - Returns: The count; 0 if the file does not exist.
    /// - Throws: ``FeedHostingError`` if the file cannot be read or parsed.
    package func tokenCount(for feed: FeedPath) throws(FeedHostingError) -> Int {
        try load().filter { $0.feed == feed.relativePath }.count
    }

    // MARK: - File format

    struct Entry: Codable, Sendable, Equatable {
        var feed: String
        var sha256: String
        var created: String?
    }

    private struct File: Decodable {
        var version: Int
        var tokens: [Entry]
    }

    /// The stored entries; empty if the file does not exist.
    func load() throws(FeedHostingError) -> [Entry] {
        guard let bytes = try StateFolder.read(path) else { return [] }
        return try Self.decode(bytes, path: path)
    }

    static func decode(_ bytes: [UInt8], path: String) throws(FeedHostingError) -> [Entry] {
        let file = try StateFolder.decode(File.self, from: bytes, path: path)
        guard file.version == 1 else {
            throw .corruptStateFile(path: path, reason: "its version is \(file.version), not 1")
        }
        return file.tokens
    }

    private func save(_ entries: [Entry]) throws(FeedHostingError) {
        let value = JSONValue.object([
            ("version", .int(1)),
            (
                "tokens",
                .array(
                    entries.map { entry in
                        .object([
                            ("feed", .string(entry.feed)), ("sha256", .string(entry.sha256)),
                            ("created", .string(orNull: entry.created)),
                        ])
                    })
            ),
        ])
        try StateFolder.write(value.encoded(pretty: true) + [UInt8(ascii: "\n")], to: path)
    }

    /// The stored form of a token: the hex SHA-256 of its text.
    static func hash(_ token: String) -> String {
        SHA256.hexHash(Array(token.utf8))
    }
}

/// Checks bearer tokens against the token file for the server, re-reading the file only when its
/// status changes.
final class FeedTokenVerifier: Sendable {
    private struct Loaded: Sendable {
        var status: FileStatus?
        var hashesByFeed: [String: [[UInt8]]]
    }

    private let store: FeedTokenStore
    private let log: @Sendable (String) -> Void
    // A Mutex: a small synchronous table consulted once per PUT, far from the hot path of GETs.
    private let loaded = Mutex<Loaded?>(nil)

    init(store: FeedTokenStore, log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.log = log
    }

    /// Whether `token` is one of `feed`'s tokens. The hashes are compared in constant time.
    func isAuthorized(_ token: String, for feed: FeedPath) -> Bool {
        let candidate = SHA256.hash(Array(token.utf8))
        let hashes = currentHashes()[feed.relativePath] ?? []
        var isMatch = false
        for hash in hashes where ConstantTime.isEqual(hash, candidate) {
            isMatch = true
        }
        return isMatch
    }

    private func currentHashes() -> [String: [[UInt8]]] {
        let status: FileStatus? = (try? FileStatus.of(path: store.path)) ?? nil
        if let current = loaded.withLock({ $0 }), current.status == status {
            return current.hashesByFeed
        }
        var table: [String: [[UInt8]]] = [:]
        do {
            for entry in try store.load() {
                if let hash = Hex.decode(entry.sha256), hash.count == SHA256.byteCount {
                    table[entry.feed, default: []].append(hash)
                }
            }
        } catch {
            log("Refusing every PUT until the token file is fixed: \(error.localizedDescription)")
        }
        loaded.withLock { $0 = Loaded(status: status, hashesByFeed: table) }
        return table
    }
}
