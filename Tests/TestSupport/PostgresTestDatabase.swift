package import Foundation
package import PostgresStore

/// A private schema in the throwaway test cluster that `scripts/test` starts (its URL is in
/// `ORGSOCIAL_TEST_POSTGRES_URL`). Every connection made from ``url`` sees only this schema (and `public`,
/// which holds `pg_trgm`), so tests do not see each other's tables.
package struct PostgresTestDatabase: Sendable {
    /// The environment variable `scripts/test` sets to the cluster's URL.
    package static let environmentVariable = "ORGSOCIAL_TEST_POSTGRES_URL"

    /// The cluster's URL, or nil when the tests run without one.
    package static let clusterURL: String? = ProcessInfo.processInfo.environment[environmentVariable].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Why the PostgreSQL suites are skipped, shown by the test runner.
    package static let skipReason =
        "no PostgreSQL test cluster: run scripts/test (it starts one; install PostgreSQL with "
        + "scripts/setup --with-postgres), or set ORGSOCIAL_TEST_POSTGRES_URL"

    /// Thrown when a test needs the cluster but none is configured.
    package struct NoCluster: Error, CustomStringConvertible {
        /// What to do.
        package var description: String { PostgresTestDatabase.skipReason }
    }

    /// The cluster's URL.
    ///
    /// - Throws: ``NoCluster`` when there is none.
    package static func requireClusterURL() throws -> String {
        guard let clusterURL else { throw NoCluster() }
        return clusterURL
    }

    /// The schema's name.
    package let schema: String
    /// A URL whose connections use the schema (`search_path`).
    package let url: PostgresURL

    /// Creates a fresh schema.
    package init() throws {
        let base = try Self.requireClusterURL()
        schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let separator = base.contains("?") ? "&" : "?"
        url = try PostgresURL(base + separator + "options=-csearch_path%3D\(schema)%2Cpublic")
        let admin = try Connection(url: base)
        try admin.execute(sql: "CREATE SCHEMA \(schema)")
    }

    /// Opens a connection that uses the schema.
    package func connect() throws -> Connection { try Connection(url: url) }

    /// Drops the schema and everything in it.
    package func drop() throws {
        let admin = try Connection(url: try Self.requireClusterURL())
        try admin.execute(sql: "DROP SCHEMA \(schema) CASCADE")
    }
}

/// Runs `body` with a fresh schema, dropped afterwards.
package func withTestDatabase<T>(_ body: (PostgresTestDatabase) async throws -> T) async throws -> T {
    let database = try PostgresTestDatabase()
    do {
        let result = try await body(database)
        try database.drop()
        return result
    } catch {
        try? database.drop()
        throw error
    }
}
