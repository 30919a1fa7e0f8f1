package import Foundation
package import OrgSocial
import RelayCore
// The storage written once for both engines is part of this engine's API: whoever imports the store
// gets its shared methods (RelayCrawlTable, RelayBridgeTable, …) as members.
@_exported import RelaySQLStore
import SQLiteStore

/// A SQLite connection as the ``SQLSession`` the relay's shared storage logic runs on.
struct SQLiteSession: SQLSession {
    /// The connection (the writer's inside a write transaction).
    let db: Connection

    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [any SQLRow] {
        try db.query(sql: sql, arguments: Self.bindings(arguments)).map(SQLiteRow.init)
    }

    @discardableResult
    func run(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try db.execute(sql: sql, arguments: Self.bindings(arguments))
        return db.changes
    }

    func insertReturningID(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try db.execute(sql: sql, arguments: Self.bindings(arguments))
        return Int(db.lastInsertRowID)
    }

    func insertReturningIDs(_ sql: String, _ arguments: SQLArguments, rows: Int) throws -> [Int] {
        try db.execute(sql: sql, arguments: Self.bindings(arguments))
        // The one writer gives one statement's rows consecutive row ids, the last one the last insert row id.
        let last = Int(db.lastInsertRowID)
        return Array((last - rows + 1)...last)
    }

    func savepoint<Value>(_ body: () throws -> Value) throws -> Value {
        try db.transaction { _ in try body() }
    }

    /// The arguments as SQLite binds them: each case's own value, with no dynamic cast (casting the
    /// value took 6 % of a cold crawl's CPU, once per column of every row).
    static func bindings(_ arguments: SQLArguments) -> PositionalArguments {
        arguments.map { argument -> (any SQLValueConvertible)? in
            switch argument?.sqlArgument {
            case .integer(let value): value
            case .real(let value): value
            case .text(let value): value
            case .blob(let value): value
            case nil: nil
            }
        }
    }
}

/// A SQLite row as an ``SQLRow``.
private struct SQLiteRow: SQLRow {
    let row: Row

    func integer(at index: Int) throws -> Int? { try row.value(at: index) }
    func real(at index: Int) throws -> Double? { try row.value(at: index) }
    func text(at index: Int) throws -> String? { try row.value(at: index) }
    func bytes(at index: Int) throws -> [UInt8]? { try row.value(at: index) }
}

/// What SQLite does differently: one writer at a time, so claims need no row locks, writes are in commit
/// order by themselves, and other processes notice changes through `PRAGMA data_version`, not an
/// announcement.
struct SQLiteRelayDialect: RelaySQLDialect {
    /// Nothing: the single writer makes a read-then-update atomic.
    var claimClause: String { "" }

    /// Nothing: SQLite compares text by its bytes.
    var byteOrderCollation: String { "" }

    /// The file's pages (the WAL not counted).
    var databaseSizeQuery: String { RelaySchema.databaseSize }

    func lockOrderedWrites(_ session: any SQLSession) throws {}

    func announceGeneration(_ session: any SQLSession) throws {}

    func announceNotifications(_ session: any SQLSession, upTo lastID: Int) throws {}

    /// Counts the new posts into `post_counts` and adds them to the full-text index, one statement each per
    /// run of consecutive row ids (a feed's new posts are usually one run), since no trigger does it
    /// (migration 10).
    func postsInserted(_ rowIDs: [Int], session: any SQLSession) throws {
        var start = 0
        while start < rowIDs.count {
            var end = start
            while end + 1 < rowIDs.count, rowIDs[end + 1] == rowIDs[end] + 1 { end += 1 }
            let range: SQLArguments = [rowIDs[start], rowIDs[end]]
            try session.run(RelaySchema.countNewPosts, range)
            try session.run(RelaySchema.indexNewPosts, range)
            start = end + 1
        }
    }
}

extension RelayDatabase: RelaySQLEngine {
    /// SQLite's.
    package var dialect: any RelaySQLDialect { SQLiteRelayDialect() }

    /// Runs `body` on a read connection of the pool.
    package func readSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer)
        async throws -> Answer
    {
        try await reader.read { db in try body(SQLiteSession(db: db)) }
    }

    /// Runs `body` in a write transaction on the writer.
    package func writeSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer)
        async throws -> Answer
    {
        try await writer.write { db in try body(SQLiteSession(db: db)) }
    }
}

extension RelayDatabase: RelayWebmentionStore {}

extension RelayDatabase: RelayBridgeIndexing, RelayBridgeStore {
    /// Indexes a bridge's feed with the SQLite indexer, without notifications.
    package func indexBridgeFeed(_ feed: Feed, url: String, now: Date, in session: any SQLSession) throws {
        guard let sqlite = session as? SQLiteSession else {
            throw StoreError.misuse(message: "Not a SQLite session", sql: nil)
        }
        var indexer = RelaySQLIndexer(session: sqlite, dialect: dialect, feedURL: url, now: now)
        indexer.logsNotifications = false
        _ = try indexer.index(RelayIndexableFeed(feed))
    }
}
