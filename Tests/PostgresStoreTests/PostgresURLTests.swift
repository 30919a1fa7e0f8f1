import PostgresStore
import Testing

/// Parsing and validating connection URLs (no server needed).
struct PostgresURLTests {
    @Test func readsEveryPartOfAURL() throws {
        let url = try PostgresURL("postgresql://relay:s%40cret@db.example:6543/relay_main?sslmode=disable")
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.database == "relay_main")
        #expect(url.user == "relay")
        #expect(url.endpoint == "db.example:6543")
        #expect(url.description == "postgresql://relay:***@db.example:6543/relay_main?sslmode=disable")

        let minimal = try PostgresURL("postgres://")
        #expect(minimal.host == nil && minimal.port == nil && minimal.database == nil)
        #expect(minimal.endpoint == "the local socket:5432")
        #expect(try PostgresURL("postgres://h/caf%C3%A9").database == "café")
    }

    @Test(arguments: [
        ("mysql://root@127.0.0.1/db", "the scheme must be postgres:// or postgresql://"),
        ("/var/lib/relay.sqlite", "the scheme must be postgres:// or postgresql://"),
        ("postgres:relay", "the scheme must be followed by ://"),
        ("postgres://127.0.0.1:99999/db", "the port 99999 is not between 1 and 65535"),
        ("postgres://127.0.0.1:port/db", "the port is missing or not a number"),
        ("postgres://127.0.0.1/db/extra", "the path must be one database name, as in /relay"),
        ("postgres://127.0.0.1:/db", "the port is missing or not a number"),
        ("postgres://a b@host/db", "it contains white space; percent-encode it (%20)"),
    ])
    func refusesABadURLSayingWhatIsWrong(url: String, reason: String) throws {
        let error = try #require(throws: PostgresError.self) { try PostgresURL(url) }
        guard case .invalidURL(_, let given) = error else {
            Issue.record("expected invalidURL, got \(error)")
            return
        }
        #expect(given == reason)
        #expect(error.errorDescription?.contains("Use postgres://user[:password]@host[:port]/database") == true)
    }

    @Test func neverPrintsThePassword() throws {
        let error = try #require(throws: PostgresError.self) { try PostgresURL("postgres://u:hunter2@h:0x/db") }
        #expect(error.errorDescription?.contains("hunter2") == false)
        #expect(error.errorDescription?.contains("u:***@h") == true)
    }
}
