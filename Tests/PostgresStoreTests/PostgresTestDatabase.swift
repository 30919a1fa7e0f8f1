import Foundation
import PostgresStore
import Testing

/// A private schema in the throwaway test cluster that `scripts/test` starts (its URL is in
/// `ORGSOCIAL_TEST_POSTGRES_URL`). Every connection made from ``url`` sees only this schema (and `public`,
/// which holds `pg_trgm`), so tests do not see each other's tables.
struct PostgresTestDatabase {
    /// The environment variable `scripts/test` sets to the cluster's URL.
    static let environmentVariable = "ORGSOCIAL_TEST_POSTGRES_URL"

    /// The cluster's URL, or nil when the tests run without one.
    static let clusterURL: String? = ProcessInfo.processInfo.environment[environmentVariable].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// Why the PostgreSQL suites are skipped, shown by the test runner.
    static let skipReason = Comment(
        rawValue: "no PostgreSQL test cluster: run scripts/test (it starts one; install PostgreSQL with "
            + "scripts/setup --with-postgres), or set ORGSOCIAL_TEST_POSTGRES_URL")

    /// The schema's name.
    let schema: String
    /// A URL whose connections use the schema (`search_path`).
    let url: PostgresURL

    /// Creates a fresh schema.
    init() throws {
        let base = try #require(Self.clusterURL, "\(Self.skipReason)")
        schema = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let separator = base.contains("?") ? "&" : "?"
        url = try PostgresURL(base + separator + "options=-csearch_path%3D\(schema)%2Cpublic")
        let admin = try Connection(url: base)
        try admin.execute(sql: "CREATE SCHEMA \(schema)")
    }

    /// Opens a connection that uses the schema.
    func connect() throws -> Connection { try Connection(url: url) }

    /// Drops the schema and everything in it.
    func drop() throws {
        let admin = try Connection(url: try #require(Self.clusterURL))
        try admin.execute(sql: "DROP SCHEMA \(schema) CASCADE")
    }
}

/// Runs `body` with a fresh schema, dropped afterwards.
func withTestDatabase<T>(_ body: (PostgresTestDatabase) async throws -> T) async throws -> T {
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
