package import RelayCore

/// What the relay's two engines do differently around the SQL written once for both: each engine has
/// one dialect (`SQLiteRelayDialect`, `PostgresRelayDialect`), and only there do the differences live.
package protocol RelaySQLDialect: Sendable {
    /// The clause after a `SELECT … LIMIT ?` that claims its rows for this transaction, skipping those
    /// another process claimed (`FOR UPDATE SKIP LOCKED`); empty where one writer at a time already
    /// makes a read-then-update atomic (SQLite).
    var claimClause: String { get }

    /// What follows a text column in `ORDER BY` to sort it by its bytes (SQLite's default; PostgreSQL's
    /// ` COLLATE "C"`), so both engines list in one order.
    var byteOrderCollation: String { get }

    /// Takes the lock that orders the writes other processes must see in order (the notification log's
    /// ids in commit order) until the transaction ends; nothing where there is one writer.
    /// - Parameter session: the write's connection.
    /// - Throws: The engine's error.
    func lockOrderedWrites(_ session: any SQLSession) throws

    /// Tells other processes, at commit, that served data changed (the generation was bumped).
    /// - Parameter session: the write's connection.
    /// - Throws: The engine's error.
    func announceGeneration(_ session: any SQLSession) throws

    /// Tells other processes' event streams, at commit, that notifications up to `lastID` were logged.
    /// - Parameters:
    ///   - session: the write's connection.
    ///   - lastID: the newest logged notification's id.
    /// - Throws: The engine's error.
    func announceNotifications(_ session: any SQLSession, upTo lastID: Int) throws

    /// Does what the engine does for new post rows beyond their own row (SQLite counts them into
    /// `post_counts` and adds them to the full-text index itself, once per run of row ids, where
    /// PostgreSQL's trigger and index do it on insert).
    /// - Parameters:
    ///   - rowIDs: the new posts' row ids, ascending.
    ///   - session: the write's connection.
    /// - Throws: The engine's error.
    func postsInserted(_ rowIDs: [Int], session: any SQLSession) throws

    /// A query of one row and column: the database's size in bytes.
    var databaseSizeQuery: String { get }
}
