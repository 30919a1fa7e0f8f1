import PostgresStore
import RelayCore

extension RelayListEntry {
    /// Reads columns 0–2 of a PostgreSQL row: url, created_at, post_id.
    ///
    /// - Parameter row: A row whose first three columns are a post's url, created_at and post_id.
    /// - Throws: When a column is missing or of another type.
    init(_ row: Row) throws {
        self.init(url: try row.value(at: 0), createdAt: try row.value(at: 1), postID: try row.value(at: 2))
    }
}
