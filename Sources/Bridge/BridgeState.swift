import Foundation
import SQLiteStore
public import TootClient

/// The bridge's state file: accounts, how posts map to statuses, cursors and runs, in one SQLite file.
///
/// Every write is one transaction, meant to be made right after the API call it records succeeds, so a
/// run stopped at any point (even by `kill -9`) knows exactly which statuses exist. Several connections
/// (processes) may use one file; writes wait for each other (SQLite's busy timeout).
///
/// ```swift
/// let state = try await BridgeState(path: "/var/lib/orgsocial/bridge.sqlite")
/// try await state.addAccount(BridgeAccount(name: "ana@mastodon.social", instanceURL: url, server: profile,
///                                          addedAt: Date()))
/// try await state.saveMapping(mapping)   // right after the status was posted
/// ```
public final class BridgeState: Sendable {
    /// The file's path.
    public let path: String
    /// The connection's owner.
    private let database: Database

    /// Opens (creating it if needed) and migrates the state file. A missing folder is created only when the
    /// folder above it exists (one level), so a mistyped path does not leave a tree of folders behind.
    /// - Parameter path: the file.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public init(path: String) async throws {
        self.path = path
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            } catch {
                throw BridgeError.storage(path: path, reason: "its folder cannot be created (\(error))")
            }
        }
        // Only its owner may read the file (and the journal SQLite gives the same mode): it names the accounts
        // and holds the runs' errors. A file from an older version made with a looser mode is tightened.
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        do {
            database = try Database(path: path)
            try await database.migrate(with: BridgeSchema.migrator)
        } catch {
            throw BridgeError.storage(path: path, reason: Self.reason(error))
        }
    }

    /// The names of the migrations applied to the file, in order.
    /// - Returns: the names.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func appliedMigrations() async throws -> [String] {
        try await read { db in try BridgeSchema.migrator.appliedMigrations(db) }
    }

    /// Closes the file; later calls fail.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func close() async throws {
        do { try await database.close() } catch { throw BridgeError.storage(path: path, reason: Self.reason(error)) }
    }

    // MARK: - Accounts

    /// Adds an account.
    /// - Parameter account: the account.
    /// - Throws: ``BridgeError/accountExists(name:)``, ``BridgeError/invalidValue(_:)`` for an empty name.
    public func addAccount(_ account: BridgeAccount) async throws {
        guard !account.name.isEmpty else { throw BridgeError.invalidValue("an account needs a name") }
        let profile = try Self.json(account.server)
        try await write { db in
            guard try db.queryOne(sql: "SELECT 1 FROM accounts WHERE name = ?", arguments: [account.name]) == nil
            else { throw BridgeError.accountExists(name: account.name) }
            try db.execute(
                sql: "INSERT INTO accounts (name, instance, server_profile, added_at) VALUES (?, ?, ?, ?)",
                arguments: [
                    account.name, account.instanceURL.absoluteString, profile, account.addedAt.timeIntervalSince1970,
                ])
        }
    }

    /// Replaces an account's server profile (after a rediscovery).
    /// - Parameters:
    ///   - server: the new profile.
    ///   - name: the account's name.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func updateServer(_ server: ServerProfile, ofAccount name: String) async throws {
        let profile = try Self.json(server)
        try await write { db in
            try db.execute(sql: "UPDATE accounts SET server_profile = ? WHERE name = ?", arguments: [profile, name])
            guard db.changes == 1 else { throw BridgeError.unknownAccount(name: name) }
        }
    }

    /// Every account, by name.
    /// - Returns: the accounts.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func accounts() async throws -> [BridgeAccount] {
        let rows = try await read { db in
            try db.query(sql: "SELECT name, instance, server_profile, added_at FROM accounts ORDER BY name")
        }
        return try rows.map(account(from:))
    }

    /// One account.
    /// - Parameter name: its name.
    /// - Returns: the account, or `nil` when there is none of that name.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func account(named name: String) async throws -> BridgeAccount? {
        let row = try await read { db in
            try db.queryOne(
                sql: "SELECT name, instance, server_profile, added_at FROM accounts WHERE name = ?", arguments: [name])
        }
        return try row.map(account(from:))
    }

    /// Removes an account with its mappings, cursors and runs.
    /// - Parameter name: its name.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func removeAccount(named name: String) async throws {
        try await write { db in
            try db.execute(sql: "DELETE FROM accounts WHERE name = ?", arguments: [name])
            guard db.changes == 1 else { throw BridgeError.unknownAccount(name: name) }
        }
    }

    // MARK: - Mappings

    /// Records (or replaces) how a post maps to statuses, in one transaction.
    /// - Parameter mapping: the mapping; it needs at least one status.
    /// - Throws: ``BridgeError/unknownAccount(name:)``, ``BridgeError/invalidValue(_:)`` for no status or a
    ///   status already mapped to another post.
    public func saveMapping(_ mapping: PostMapping) async throws {
        guard !mapping.parts.isEmpty else {
            throw BridgeError.invalidValue("the mapping of post \(mapping.postID) has no status")
        }
        let media = try Self.json(mapping.mediaIDs)
        try await write { db in
            try Self.requireAccount(mapping.account, db)
            let key: PositionalArguments = [mapping.feed, mapping.account, mapping.postID]
            for part in mapping.parts {
                let owner = try db.queryOne(
                    sql: "SELECT feed, post_id FROM mapping_parts WHERE account = ? AND status_id = ?",
                    arguments: [mapping.account, part.statusID])
                if let owner,
                    try owner.value(at: 0, as: String.self) != mapping.feed
                        || owner.value(at: 1, as: String.self) != mapping.postID
                {
                    throw BridgeError.invalidValue(
                        "status \(part.statusID) is already mapped to post \(try owner.value(at: 1, as: String.self))")
                }
            }
            try db.execute(
                sql: "DELETE FROM mapping_parts WHERE feed = ? AND account = ? AND post_id = ?", arguments: key)
            try db.execute(
                sql: """
                    INSERT INTO mappings (feed, account, post_id, content_hash, origin, media_ids, poll_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (feed, account, post_id) DO UPDATE SET content_hash = excluded.content_hash,
                        origin = excluded.origin, media_ids = excluded.media_ids, poll_id = excluded.poll_id
                    """,
                arguments: key + [mapping.contentHash, mapping.origin.rawValue, media, mapping.pollID])
            for (index, part) in mapping.parts.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO mapping_parts (feed, account, post_id, part, status_id, status_url)
                        VALUES (?, ?, ?, ?, ?, ?)
                        """,
                    arguments: key + [index, part.statusID, part.url?.absoluteString])
            }
        }
    }

    /// The mapping of one post.
    /// - Parameters:
    ///   - postID: the post ID.
    ///   - feed: the feed.
    ///   - account: the account's name.
    /// - Returns: the mapping, or `nil` when the post is not mapped.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func mapping(postID: String, feed: String, account: String) async throws -> PostMapping? {
        try await mappings(where: "m.feed = ? AND m.account = ? AND m.post_id = ?", [feed, account, postID]).first
    }

    /// The mapping that holds a status, whichever part of it the status is.
    /// - Parameters:
    ///   - statusID: the status ID.
    ///   - account: the account's name.
    /// - Returns: the mapping, or `nil` when the status is not mapped.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func mapping(statusID: String, account: String) async throws -> PostMapping? {
        try await mappings(
            where: """
                m.account = ? AND EXISTS (SELECT 1 FROM mapping_parts q WHERE q.feed = m.feed
                    AND q.account = m.account AND q.post_id = m.post_id AND q.status_id = ?)
                """, [account, statusID]
        ).first
    }

    /// Every mapping of a (feed, account) pair, by post ID.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    /// - Returns: the mappings.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func mappings(feed: String, account: String) async throws -> [PostMapping] {
        try await mappings(where: "m.feed = ? AND m.account = ?", [feed, account])
    }

    /// Forgets a post's mapping (after its statuses were deleted).
    /// - Parameters:
    ///   - postID: the post ID.
    ///   - feed: the feed.
    ///   - account: the account's name.
    /// - Returns: whether there was one.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    @discardableResult
    public func removeMapping(postID: String, feed: String, account: String) async throws -> Bool {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM mappings WHERE feed = ? AND account = ? AND post_id = ?",
                arguments: [feed, account, postID])
            return db.changes == 1
        }
    }

    // MARK: - Cursors

    /// Moves a cursor (creating it).
    /// - Parameter cursor: the cursor.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func setCursor(_ cursor: SyncCursor) async throws {
        try await write { db in
            try Self.requireAccount(cursor.account, db)
            try db.execute(
                sql: """
                    INSERT INTO cursors (feed, account, direction, value, updated_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (feed, account, direction) DO UPDATE SET value = excluded.value,
                        updated_at = excluded.updated_at
                    """,
                arguments: [
                    cursor.feed, cursor.account, cursor.direction.rawValue, cursor.value,
                    cursor.updatedAt.timeIntervalSince1970,
                ])
        }
    }

    /// One cursor.
    /// - Parameters:
    ///   - direction: the direction.
    ///   - feed: the feed.
    ///   - account: the account's name.
    /// - Returns: the cursor, or `nil` before the first run.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func cursor(_ direction: SyncDirection, feed: String, account: String) async throws -> SyncCursor? {
        try await cursors(where: "feed = ? AND account = ? AND direction = ?", [feed, account, direction.rawValue])
            .first
    }

    /// Every cursor of an account, by feed then direction.
    /// - Parameter account: the account's name.
    /// - Returns: the cursors.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func cursors(account: String) async throws -> [SyncCursor] {
        try await cursors(where: "account = ?", [account])
    }

    // MARK: - Runs

    /// Records a finished run. Its error is stored redacted and capped (`SecretRedaction`): a server that
    /// echoes the `Authorization` header cannot put the token into the state file.
    /// - Parameter run: the run.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func recordRun(_ run: RunRecord) async throws {
        try await write { db in
            try Self.requireAccount(run.account, db)
            try db.execute(
                sql: """
                    INSERT INTO runs (feed, account, started_at, finished_at, pushed, edited, deleted, pulled, error)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    run.feed, run.account, run.startedAt.timeIntervalSince1970, run.finishedAt.timeIntervalSince1970,
                    run.counts.pushed, run.counts.edited, run.counts.deleted, run.counts.pulled,
                    run.error.map { SecretRedaction.redacted($0) },
                ])
        }
    }

    /// An account's runs, newest first.
    /// - Parameters:
    ///   - account: the account's name.
    ///   - failedOnly: only the runs that failed.
    ///   - limit: the most to return.
    /// - Returns: the runs.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func runs(account: String, failedOnly: Bool = false, limit: Int = 20) async throws -> [RunRecord] {
        let filter = failedOnly ? " AND error IS NOT NULL" : ""
        let rows = try await read { db in
            try db.query(
                sql: """
                    SELECT feed, account, started_at, finished_at, pushed, edited, deleted, pulled, error FROM runs
                    WHERE account = ?\(filter) ORDER BY id DESC LIMIT ?
                    """, arguments: [account, max(0, limit)])
        }
        return try rows.map { row in
            RunRecord(
                feed: try row.value(at: 0), account: try row.value(at: 1),
                startedAt: Date(timeIntervalSince1970: try row.value(at: 2)),
                finishedAt: Date(timeIntervalSince1970: try row.value(at: 3)),
                counts: RunCounts(
                    pushed: try row.value(at: 4), edited: try row.value(at: 5), deleted: try row.value(at: 6),
                    pulled: try row.value(at: 7)),
                error: try row.value(at: 8))
        }
    }

    /// What `bridge status` shows for an account: cursors, mapped posts, last run, last error, totals.
    /// - Parameter name: the account's name.
    /// - Returns: the status.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func status(ofAccount name: String) async throws -> AccountStatus {
        guard let account = try await account(named: name) else { throw BridgeError.unknownAccount(name: name) }
        let (origins, totals) = try await read { db in
            let origins = try db.query(
                sql: "SELECT origin, count(*) FROM mappings WHERE account = ? GROUP BY origin", arguments: [name])
            let totals = try db.queryOne(
                sql: """
                    SELECT coalesce(sum(pushed), 0), coalesce(sum(edited), 0), coalesce(sum(deleted), 0),
                        coalesce(sum(pulled), 0) FROM runs WHERE account = ?
                    """, arguments: [name])
            return (origins, totals)
        }
        var mapped: [PostOrigin: Int] = [:]
        for row in origins {
            if let origin = PostOrigin(rawValue: try row.value(at: 0)) { mapped[origin] = try row.value(at: 1) }
        }
        let counts = try totals.map { row in
            RunCounts(
                pushed: try row.value(at: 0), edited: try row.value(at: 1), deleted: try row.value(at: 2),
                pulled: try row.value(at: 3))
        }
        return AccountStatus(
            account: account, cursors: try await cursors(account: name), mappedPosts: mapped,
            lastRun: try await runs(account: name, limit: 1).first,
            lastError: try await runs(account: name, failedOnly: true, limit: 1).first, totals: counts ?? RunCounts())
    }

    // MARK: - Helpers

    /// Reads, turning storage errors into ``BridgeError``.
    func read<T: Sendable>(_ body: @Sendable (Connection) throws -> T) async throws -> T {
        do { return try await database.read(body) } catch let error as BridgeError { throw error } catch {
            throw BridgeError.storage(path: path, reason: Self.reason(error))
        }
    }

    /// Writes in one transaction, turning storage errors into ``BridgeError``.
    func write<T: Sendable>(_ body: @Sendable (Connection) throws -> T) async throws -> T {
        do { return try await database.write(body) } catch let error as BridgeError { throw error } catch {
            throw BridgeError.storage(path: path, reason: Self.reason(error))
        }
    }

    /// Throws unless the account exists.
    static func requireAccount(_ name: String, _ db: Connection) throws {
        guard try db.queryOne(sql: "SELECT 1 FROM accounts WHERE name = ?", arguments: [name]) != nil else {
            throw BridgeError.unknownAccount(name: name)
        }
    }

    /// The mappings matching a condition on `m` (mappings), with their parts in order.
    private func mappings(where condition: String, _ arguments: [String]) async throws -> [PostMapping] {
        let sql = """
            SELECT m.feed, m.account, m.post_id, m.content_hash, m.origin, m.media_ids, m.poll_id, p.status_id,
                p.status_url
            FROM mappings m JOIN mapping_parts p ON p.feed = m.feed AND p.account = m.account AND p.post_id = m.post_id
            WHERE \(condition) ORDER BY m.feed, m.account, m.post_id, p.part
            """
        let rows = try await read { db in
            try db.query(sql: sql, arguments: arguments.map { $0 as (any SQLValueConvertible)? })
        }
        var result: [PostMapping] = []
        for row in rows {
            let feed: String = try row.value(at: 0)
            let account: String = try row.value(at: 1)
            let postID: String = try row.value(at: 2)
            let part = StatusPart(
                statusID: try row.value(at: 7),
                url: (try row.value(at: 8, as: String?.self)).flatMap { URL(string: $0) })
            if let last = result.last, last.feed == feed, last.account == account, last.postID == postID {
                result[result.count - 1].parts.append(part)
                continue
            }
            let originText: String = try row.value(at: 4)
            guard let origin = PostOrigin(rawValue: originText) else {
                throw BridgeError.storage(path: path, reason: "post \(postID) has an unknown origin '\(originText)'")
            }
            result.append(
                PostMapping(
                    feed: feed, account: account, postID: postID, parts: [part], contentHash: try row.value(at: 3),
                    origin: origin, mediaIDs: try Self.decode([String].self, try row.value(at: 5), path: path),
                    pollID: try row.value(at: 6)))
        }
        return result
    }

    /// The cursors matching a condition.
    private func cursors(where condition: String, _ arguments: [String]) async throws -> [SyncCursor] {
        let sql = """
            SELECT feed, account, direction, value, updated_at FROM cursors WHERE \(condition)
            ORDER BY feed, direction
            """
        let rows = try await read { db in
            try db.query(sql: sql, arguments: arguments.map { $0 as (any SQLValueConvertible)? })
        }
        return try rows.compactMap { row in
            guard let direction = SyncDirection(rawValue: try row.value(at: 2)) else { return nil }
            return SyncCursor(
                feed: try row.value(at: 0), account: try row.value(at: 1), direction: direction,
                value: try row.value(at: 3), updatedAt: Date(timeIntervalSince1970: try row.value(at: 4)))
        }
    }

    /// An account from its row.
    private func account(from row: Row) throws -> BridgeAccount {
        let name: String = try row.value(at: 0)
        let instance: String = try row.value(at: 1)
        guard let url = URL(string: instance) else {
            throw BridgeError.storage(path: path, reason: "account \(name) has an invalid instance URL '\(instance)'")
        }
        return BridgeAccount(
            name: name, instanceURL: url,
            server: try Self.decode(ServerProfile.self, try row.value(at: 2), path: path),
            addedAt: Date(timeIntervalSince1970: try row.value(at: 3)))
    }

    /// JSON text with sorted keys.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Decodes stored JSON text.
    private static func decode<T: Decodable>(_ type: T.Type, _ text: String, path: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw BridgeError.storage(path: path, reason: "a stored \(type) cannot be read (\(error))")
        }
    }

    /// A storage error's description.
    private static func reason(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
}
