import PostgresStore
import TestSupport
import Testing

/// Substring search with pg_trgm, the way the relay's search will run on PostgreSQL.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct TrigramSearchTests {
    @Test func anILikeSubstringQueryUsesTheGINTrigramIndex() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try connection.execute(
                sql: """
                    CREATE TABLE posts (id int8 PRIMARY KEY, body text NOT NULL);
                    CREATE INDEX posts_body_trgm ON posts USING gin (body gin_trgm_ops);
                    """)
            let bodies = [
                "Swift on Linux is fun", "I love SWIFTLY moving rivers", "Org Social feeds in plain text",
                "Ünïcödé café au lait", "nothing to see here",
            ]
            try connection.transaction { db in
                for id in 0..<2_000 {
                    let body = id < bodies.count ? bodies[id] : "filler post number \(id) about gardening"
                    try db.execute(sql: "INSERT INTO posts VALUES ($1, $2)", arguments: [id, body])
                }
            }
            try connection.execute(sql: "ANALYZE posts")

            let search = "SELECT id FROM posts WHERE body ILIKE '%' || $1 || '%'"
            func ids(_ term: String) throws -> [Int] {
                try connection.query(sql: search, arguments: [term]).map { try $0.value(at: 0, as: Int.self) }.sorted()
            }
            #expect(try ids("swift") == [0, 1])
            #expect(try ids("PLAIN TEX") == [2])
            #expect(try ids("CAFÉ") == [3])
            #expect(try ids("zzz").isEmpty)

            // On 2,000 short rows a sequential scan is cheaper, so the planner is told to avoid one: had the
            // index been unusable for ILIKE '%…%', the plan would still be a (penalized) Seq Scan.
            try connection.execute(sql: "SET enable_seqscan = off")
            let plan = try connection.query(sql: "EXPLAIN " + search, arguments: ["swift"])
                .map { try $0.value(at: 0, as: String.self) }.joined(separator: "\n")
            #expect(plan.contains("posts_body_trgm"), "\(plan)")
        }
    }
}
