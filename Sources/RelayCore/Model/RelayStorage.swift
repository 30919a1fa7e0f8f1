/// A whole relay store, whatever its engine: the crawl state the crawler writes, the read model the API
/// answers from, the notification log the event streams tail, the bridges and the outgoing Webmention
/// queue. The SQLite store (`RelayDatabase`, the default: one file) and the PostgreSQL store
/// (`RelayPostgresDatabase`, for several processes on one database) implement it with the same answers.
package protocol RelayStorage: RelayCrawlStore, RelayReadModel, RelayNotificationLog, RelayBridgeStore,
    RelayWebmentionStore
{
    /// Closes the store's connections; later calls fail.
    ///
    /// - Throws: The engine's error when a connection cannot be closed.
    func close() async throws

    /// The database's size in bytes (SQLite: its pages; PostgreSQL: `pg_database_size`), for monitoring.
    ///
    /// - Returns: The size.
    /// - Throws: The engine's error.
    func databaseBytes() async throws -> Int
}
