import Foundation
import RelaySQLStore
import SQLiteStore
import TestSupport
import Testing

@testable import RelayStore

/// The one list of migration names and tables (`RelaySQLStore`) is the schema SQLite really has.
struct RelaySchemaHistoryTests {
    @Test func theSQLiteSchemaRegistersEveryMigrationOfTheListInOrder() {
        #expect(RelaySchema.migrator.migrationNames == RelayMigrationName.allCases.map(\.rawValue))
    }

    @Test func theTableListIsEveryDataTableOfTheSchema() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let db = try Connection(path: folder.path("relay.sqlite"))
        try RelaySchema.migrator.migrate(db)
        let tables = try db.query(
            sql: """
                SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
                AND name NOT LIKE 'post_search%' AND name NOT LIKE '%migrations%' AND name NOT LIKE 'post_counts%'
                AND name <> 'feed_changes'
                ORDER BY name
                """
        ).map { try $0.value(at: 0, as: String.self) }
        #expect(tables == RelayTables.inForeignKeyOrder.sorted())
        #expect(Set(RelayTables.withIdentity).isSubset(of: tables))
        try db.close()
    }
}
