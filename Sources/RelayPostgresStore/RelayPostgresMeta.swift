package import Foundation
package import OrgSocial
import PostgresStore
import RelayCore
// The storage written once for both engines is part of this engine's API: whoever imports the store
// gets its shared methods (RelayCrawlTable, RelayBridgeTable, …) as members.
@_exported import RelaySQLStore

/// What PostgreSQL does differently around the `meta` table and the notification log: the lock that
/// orders the writes other processes must see in order, and the channels that announce changes to them.
enum RelayPostgresMeta {
    /// The channel every generation bump notifies (at commit), so every process's ``RelayPostgresDatabase``
    /// knows its cached answers are stale.
    static let changeChannel = "orgsocial_relay_data"
    /// The channel every logged notification notifies (at commit), for the event streams of every process.
    static let notificationChannel = "orgsocial_relay_notifications"
    /// The advisory lock (`pg_advisory_xact_lock`) a transaction holds from its first generation bump or
    /// logged notification to its commit: the notification log's ids are then given in commit order, so an
    /// event stream that has read up to id *n* never finds a smaller id committed later.
    static let orderedWriteLock: Int64 = 0x6F72_6773_7265_6C31

    /// Takes the ordered-write lock until the transaction ends (a no-op when already held).
    static func lockOrderedWrites(_ sql: RelaySQL) throws {
        _ = try sql.query("SELECT pg_advisory_xact_lock(?::int8)", [orderedWriteLock])
    }

    /// Bumps the generation (``RelayMetaTable/bump(_:dialect:now:)`` with this engine's dialect).
    static func bump(_ sql: RelaySQL, now: Date) throws {
        try RelayMetaTable.bump(sql, dialect: PostgresRelayDialect(), now: now)
    }
}

/// PostgreSQL's differences from SQLite in the storage logic written once: several processes write, so
/// claims skip the rows another process locked, writes that must be seen in order take an advisory lock,
/// and changes are announced with `pg_notify` (at commit).
struct PostgresRelayDialect: RelaySQLDialect {
    /// Skips rows another process's claim holds.
    var claimClause: String { "FOR UPDATE SKIP LOCKED" }

    /// Byte order, as SQLite sorts text.
    var byteOrderCollation: String { " COLLATE \"C\"" }

    /// The whole database, tables, indexes and TOAST.
    var databaseSizeQuery: String { "SELECT pg_database_size(current_database())" }

    func lockOrderedWrites(_ session: any SQLSession) throws {
        _ = try session.rows("SELECT pg_advisory_xact_lock(?::int8)", [Int(RelayPostgresMeta.orderedWriteLock)])
    }

    func announceGeneration(_ session: any SQLSession) throws {
        _ = try session.rows("SELECT pg_notify(?, '')", [RelayPostgresMeta.changeChannel])
    }

    func announceNotifications(_ session: any SQLSession, upTo lastID: Int) throws {
        _ = try session.rows("SELECT pg_notify(?, ?)", [RelayPostgresMeta.notificationChannel, String(lastID)])
    }

    /// Nothing: the trigger on `posts` counts new posts and the trigram index takes them on insert.
    func postsInserted(_ rowIDs: [Int], session: any SQLSession) throws {}
}

extension RelaySQL: SQLSession {
    func rows(_ sql: String, _ arguments: SQLArguments) throws -> [any SQLRow] {
        try query(sql, Self.bindings(arguments)).map(PostgresSQLRow.init)
    }

    @discardableResult
    func run(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try execute(sql, Self.bindings(arguments))
    }

    func insertReturningID(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try query(sql + " RETURNING id", Self.bindings(arguments)).first?.value(at: 0, as: Int.self) ?? 0
    }

    func insertReturningIDs(_ sql: String, _ arguments: SQLArguments, rows: Int) throws -> [Int] {
        // The identity column takes its values row after row, so ascending ids are the rows' order
        // (whatever order RETURNING lists them in).
        try query(sql + " RETURNING id", Self.bindings(arguments)).map { try $0.value(at: 0, as: Int.self) }.sorted()
    }

    /// The arguments as PostgreSQL binds them.
    func savepoint<Value>(_ body: () throws -> Value) throws -> Value {
        try db.transaction { _ in try body() }
    }

    private static func bindings(_ arguments: SQLArguments) -> PostgresArguments {
        arguments.map { $0?.sqlArgument?.value as? any PostgresValueConvertible }
    }
}

/// A PostgreSQL row as an ``SQLRow``.
private struct PostgresSQLRow: SQLRow {
    let row: Row

    func integer(at index: Int) throws -> Int? { try row.value(at: index) }
    func real(at index: Int) throws -> Double? { try row.value(at: index) }
    func text(at index: Int) throws -> String? { try row.value(at: index) }
    func bytes(at index: Int) throws -> [UInt8]? { try row.value(at: index) }
}

extension RelayPostgresDatabase: RelaySQLEngine {
    /// PostgreSQL's.
    package var dialect: any RelaySQLDialect { PostgresRelayDialect() }

    /// Runs `body` in a read-only snapshot.
    package func readSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer)
        async throws -> Answer
    {
        try await read { sql in try body(sql) }
    }

    /// Runs `body` in a read-write transaction.
    package func writeSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer)
        async throws -> Answer
    {
        try await write { sql in try body(sql) }
    }
}

extension RelayPostgresDatabase: RelayWebmentionStore {}

extension RelayPostgresDatabase: RelayBridgeIndexing, RelayBridgeStore {
    /// Indexes a bridge's feed with the PostgreSQL indexer, without notifications.
    package func indexBridgeFeed(_ feed: Feed, url: String, now: Date, in session: any SQLSession) throws {
        guard let sql = session as? RelaySQL else {
            throw PostgresError.misuse(message: "Not a PostgreSQL session", sql: nil)
        }
        var indexer = RelaySQLIndexer(session: sql, dialect: dialect, feedURL: url, now: now)
        indexer.logsNotifications = false
        _ = try indexer.index(RelayIndexableFeed(feed))
    }
}
