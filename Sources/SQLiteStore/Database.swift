/// The one owner of a ``Connection``: an actor that serializes every use of it.
///
/// The relay's handlers and crawler share one `Database`; each `read` or `write` runs to completion before
/// the next starts, so the non-`Sendable` connection is only ever used from one task at a time.
///
/// ```swift
/// let database = try Database(path: path)
/// try await database.migrate(with: RelaySchema.migrator)
/// let count = try await database.read { db in
///     try db.queryOne(sql: "SELECT count(*) FROM posts")?.value(at: 0, as: Int.self) ?? 0
/// }
/// ```
package actor Database {
    /// The connection, used only from this actor.
    private let connection: Connection
    /// The checkpointer this connection's checkpoints were handed to, if any.
    private var checkpointer: WALCheckpointer?

    /// Opens a database (see ``Connection/init(path:mode:busyTimeout:)``).
    ///
    /// - Parameters:
    ///   - path: A file path, or `:memory:`.
    ///   - mode: How to open the file.
    ///   - busyTimeout: How long to wait for another process's lock.
    /// - Throws: ``StoreError``.
    package init(
        path: String, mode: Connection.OpenMode = .readWriteCreate, busyTimeout: Duration = .seconds(5)
    ) throws(StoreError) {
        connection = try Connection(path: path, mode: mode, busyTimeout: busyTimeout)
    }

    /// Runs `body` with the connection, outside any transaction the store opens.
    ///
    /// - Parameter body: Reads (or single-statement writes, each atomic on its own).
    /// - Returns: What `body` returns.
    /// - Throws: Whatever `body` throws.
    package func read<T: Sendable>(_ body: @Sendable (Connection) throws -> T) throws -> T {
        try body(connection)
    }

    /// Runs `body` in a transaction (see ``Connection/transaction(_:)``): commit on return, roll back on throw.
    ///
    /// - Parameter body: The writes.
    /// - Returns: What `body` returns.
    /// - Throws: The first error, after rolling back.
    package func write<T: Sendable>(_ body: @Sendable (Connection) throws -> T) throws -> T {
        try connection.transaction(body)
    }

    /// Leaves this connection's checkpoints to `checkpointer` (see ``WALCheckpointer``): its commits no
    /// longer wait for the disk.
    ///
    /// - Throws: ``StoreError`` when the connection is closed.
    package func handOffCheckpoints(to checkpointer: WALCheckpointer) throws(StoreError) {
        guard self.checkpointer == nil else { return }
        try checkpointer.attach(to: connection)
        self.checkpointer = checkpointer
    }

    /// Gives this connection its automatic checkpoints back (before the checkpointer closes).
    ///
    /// - Throws: ``StoreError`` when the connection is closed.
    package func takeBackCheckpoints() throws(StoreError) {
        guard checkpointer != nil else { return }
        try WALCheckpointer.detach(from: connection)
        checkpointer = nil
    }

    /// Applies the migrations not yet applied.
    ///
    /// - Parameter migrator: The registered migrations.
    /// - Throws: See ``Migrator/migrate(_:)``.
    package func migrate(with migrator: Migrator) throws {
        try migrator.migrate(connection)
    }

    /// Closes the connection; later calls fail with ``StoreError/misuse(message:sql:)``.
    ///
    /// - Throws: ``StoreError``.
    package func close() throws(StoreError) {
        try takeBackCheckpoints()
        try connection.close()
    }
}
