package import RelayCore

/// A relay store whose storage logic is written once in SQL: it lends a connection for a read or a
/// write transaction, and names its engine's ``RelaySQLDialect``. The logic shared by both engines is
/// written in extensions of this protocol (the Webmention queue first).
package protocol RelaySQLEngine: Sendable {
    /// The engine's differences.
    var dialect: any RelaySQLDialect { get }

    /// Runs `body` in a read transaction.
    /// - Parameter body: the queries.
    /// - Returns: What `body` returned.
    /// - Throws: The engine's error, or what `body` throws.
    func readSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer) async throws
        -> Answer

    /// Runs `body` in a write transaction (committed when it returns, rolled back when it throws).
    /// - Parameter body: the statements.
    /// - Returns: What `body` returned.
    /// - Throws: The engine's error, or what `body` throws.
    func writeSQL<Answer: Sendable>(_ body: @escaping @Sendable (any SQLSession) throws -> Answer) async throws
        -> Answer
}

extension RelayStorage where Self: RelaySQLEngine {
    /// The database's size in bytes, by the engine's own measure (``RelaySQLDialect/databaseSizeQuery``).
    package func databaseBytes() async throws -> Int {
        let query = dialect.databaseSizeQuery
        return try await readSQL { session in try session.firstRow(query)?.int(at: 0) ?? 0 }
    }
}
