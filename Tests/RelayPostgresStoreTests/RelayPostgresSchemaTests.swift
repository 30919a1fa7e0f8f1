import Foundation
import PostgresStore
import RelayPostgresStore
import RelayStore
import SQLiteStore
import TestSupport
import Testing

/// The relay's PostgreSQL migrations against the SQLite store's: same history, same tables and columns.
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct RelayPostgresSchemaTests {
    /// A relay SQLite database migrated by RelayStore, opened with SQLiteStore to read its schema.
    private func withSQLiteRelay<T>(_ body: (SQLiteStore.Connection) throws -> T) async throws -> T {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("relay.sqlite")
        try await RelayDatabase.open(path: path, groups: []).close()
        return try body(try SQLiteStore.Connection(path: path, mode: .readOnly))
    }

    @Test func appliesToAnEmptyDatabaseAndRecordsTheSameHistoryAsSQLite() async throws {
        let sqliteHistory = try await withSQLiteRelay { db in
            try db.query(sql: "SELECT name FROM sqlitestore_migrations ORDER BY version").map {
                try $0.value(at: 0, as: String.self)
            }
        }
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            try RelayPostgresSchema.migrator.migrate(connection)
            let history = try connection.query(sql: "SELECT version, name FROM pgstore_migrations ORDER BY version")
            #expect(try history.map { try $0.value(at: 0, as: Int.self) } == Array(1...sqliteHistory.count))
            #expect(try history.map { try $0.value(at: 1, as: String.self) } == sqliteHistory)
            #expect(RelayPostgresSchema.migrator.migrationNames == sqliteHistory)
            let meta = try connection.query(sql: "SELECT key, value FROM meta ORDER BY key").map {
                [try $0.value(at: 0, as: String.self), try $0.value(at: 1, as: String.self)]
            }
            #expect(meta == [["store.changed_at", "0"], ["store.generation", "0"]])
        }
    }

    @Test func hasTheSQLiteStoresTablesAndColumns() async throws {
        let sqliteTables = try await withSQLiteRelay { db in
            let names = try db.query(
                sql: """
                    SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite%'
                        AND name NOT LIKE 'post_search%' ORDER BY name
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            var columns: [String: [String]] = [:]
            for name in names {
                columns[name] = try db.query(
                    sql: "SELECT name FROM pragma_table_info(?) ORDER BY cid", arguments: [name]
                )
                .map { try $0.value(at: 0, as: String.self) }
            }
            return columns
        }
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            let rows = try connection.query(
                sql: """
                    SELECT table_name::text, column_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name <> 'pgstore_migrations'
                    ORDER BY table_name, ordinal_position
                    """)
            var columns: [String: [String]] = [:]
            for row in rows {
                columns[try row.value(at: 0, as: String.self), default: []].append(
                    try row.value(at: 1, as: String.self))
            }
            #expect(sqliteTables.count >= 15 && sqliteTables["posts"]?.contains("search_text") == true)
            #expect(columns == sqliteTables)
        }
    }

    /// Migration 14: a post's URL is derived from its feed and ID, so neither engine keeps a `url` column in
    /// `posts` nor an index naming it.
    @Test func postsKeepNoURLColumnOrURLIndexOnEitherEngine() async throws {
        let sqlite = try await withSQLiteRelay { db in
            let columns = try db.query(sql: "SELECT name FROM pragma_table_info('posts')").map {
                try $0.value(at: 0, as: String.self)
            }
            let indexes = try db.query(
                sql: """
                    SELECT name || ' ' || sql FROM sqlite_schema
                    WHERE type = 'index' AND tbl_name = 'posts' AND sql IS NOT NULL
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            return (columns, indexes)
        }
        #expect(sqlite.0.contains("post_id") && !sqlite.0.contains("url"))
        #expect(sqlite.1.contains { $0.hasPrefix("posts_created ") })
        #expect(sqlite.1.filter { $0.contains("url") }.isEmpty, "\(sqlite.1)")
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            let columns = try connection.query(
                sql: """
                    SELECT column_name::text FROM information_schema.columns
                    WHERE table_schema = current_schema() AND table_name = 'posts'
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            #expect(columns.contains("post_id") && !columns.contains("url"))
            let indexes = try connection.query(
                sql: """
                    SELECT indexname::text || ' ' || indexdef FROM pg_indexes
                    WHERE schemaname = current_schema() AND tablename = 'posts'
                    """
            ).map { try $0.value(at: 0, as: String.self) }
            #expect(indexes.contains { $0.hasPrefix("posts_created ") })
            #expect(indexes.filter { $0.contains("url") }.isEmpty, "\(indexes)")
        }
    }

    @Test func searchTextIsFoundBySubstringThroughTheTrigramIndex() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            try connection.execute(sql: "SET enable_seqscan = off")
            let plan = try connection.query(
                sql: "EXPLAIN SELECT id FROM posts WHERE search_text ILIKE '%' || $1 || '%'", arguments: ["emacs"]
            ).map { try $0.value(at: 0, as: String.self) }.joined(separator: "\n")
            #expect(plan.contains("posts_search_trgm"), "\(plan)")
        }
    }

    @Test func postCountersFollowInsertsEditsAndDeletionsAsARecountWould() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            try connection.execute(
                sql: """
                    INSERT INTO profiles (id, feed, created_at, updated_at) VALUES
                        (1, 'https://a.example/social.org', 0, 0), (2, 'https://b.example/social.org', 0, 0)
                    """)
            // 2026-01-31T23:30:00Z and 2026-02-01T00:30:00Z: two UTC months.
            let january = 1_769_902_200.0
            let february = 1_769_905_800.0
            let posts: [(Int, String, String?, String, String, String?, String?, Double?, Double)] = [
                (1, "post", nil, "", "hello", nil, nil, nil, january),
                (1, "reply", "https://b.example/social.org#x", "", "answer", nil, nil, nil, january),
                (1, "reaction", "https://b.example/social.org#x", "👍", "", nil, nil, nil, february),
                (2, "boost", nil, "", "", nil, "https://a.example/social.org#y", nil, february),
                (2, "poll", nil, "", "Tea?", "emacs", nil, february + 3600, february),
            ]
            for (index, post) in posts.enumerated() {
                _ = try connection.execute(
                    sql: """
                        INSERT INTO posts (profile_id, post_id, content, search_text, reply_to, mood, group_slug,
                            include, poll_end, created_at, updated_at, hash)
                        VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $9, '')
                        """,
                    arguments: [
                        post.0, "\(index)-\(post.1)", post.4, post.2, post.3, post.5, post.6, post.7, post.8,
                    ])
            }
            _ = try connection.execute(
                sql: "UPDATE posts SET reply_to = NULL, created_at = $1 WHERE post_id = '1-reply'",
                arguments: [february])
            _ = try connection.execute(sql: "DELETE FROM posts WHERE post_id = '0-post'", arguments: [])
            let recount = """
                SELECT to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM'), profile_id,
                    coalesce(group_slug, ''), count(*),
                    sum((reply_to IS NULL AND include IS NULL)::int),
                    sum((reply_to IS NOT NULL AND NOT (mood <> '' AND content = ''))::int),
                    sum((include IS NOT NULL AND reply_to IS NULL)::int),
                    sum((reply_to IS NOT NULL AND mood <> '' AND content = '')::int),
                    sum((poll_end IS NOT NULL)::int)
                FROM posts GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                """
            let counters = """
                SELECT month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls
                FROM post_counts WHERE total > 0 ORDER BY 1, 2, 3
                """
            func read(_ sql: String) throws -> [[String]] {
                try connection.query(sql: sql).map { row in
                    try (0..<9).map { index in
                        index == 0 || index == 2
                            ? try row.value(at: index, as: String.self) : String(try row.value(at: index, as: Int.self))
                    }
                }
            }
            let expected = try read(recount)
            #expect(expected.count == 3)
            #expect(try read(counters) == expected)
            let januaryRows = try connection.query(sql: "SELECT total FROM post_counts WHERE month = '2026-01'")
            #expect(try januaryRows.map { try $0.value(at: 0, as: Int.self) } == [0])
        }
    }
}

/// Migration 11: the post counters, kept once per statement, match a count of the posts after inserts of
/// many rows, edits and deletes (cascades of a profile included).
@Suite(.enabled(if: PostgresTestDatabase.clusterURL != nil, Comment(rawValue: PostgresTestDatabase.skipReason)))
struct RelayPostgresPostCountsTests {
    /// The counters as stored, and as counted from the posts, without the rows that reached zero.
    private func counters(_ connection: PostgresStore.Connection) throws -> (stored: [[Int]], counted: [[Int]]) {
        let columns = "profile_id, total, posts, replies, boosts, reactions, polls"
        let stored = try connection.query(
            sql: "SELECT \(columns) FROM post_counts WHERE total > 0 ORDER BY month, profile_id, group_slug")
        let counted = try connection.query(
            sql: """
                SELECT profile_id, count(*),
                    sum((reply_to IS NULL AND include IS NULL)::int),
                    sum((reply_to IS NOT NULL AND NOT (mood <> '' AND content = ''))::int),
                    sum((include IS NOT NULL AND reply_to IS NULL)::int),
                    sum((reply_to IS NOT NULL AND mood <> '' AND content = '')::int),
                    sum((poll_end IS NOT NULL)::int)
                FROM posts
                GROUP BY to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM'), profile_id,
                    coalesce(group_slug, '')
                ORDER BY to_char(to_timestamp(created_at) AT TIME ZONE 'UTC', 'YYYY-MM'), profile_id,
                    coalesce(group_slug, '')
                """)
        let values = { (rows: [PostgresStore.Row]) in
            try rows.map { row in try (0..<7).map { try row.value(at: $0, as: Int.self) } }
        }
        return (try values(stored), try values(counted))
    }

    @Test func countersFollowInsertsOfManyRowsEditsAndDeletes() async throws {
        try await withTestDatabase { database in
            let connection = try database.connect()
            try RelayPostgresSchema.migrator.migrate(connection)
            for (id, feed) in [(1, "https://a.example/social.org"), (2, "https://b.example/social.org")] {
                try connection.execute(
                    sql: "INSERT INTO profiles (id, feed, nick, created_at, updated_at) VALUES ($1, $2, 'n', 0, 0)",
                    arguments: [id, feed])
            }
            // One statement of many rows: two months, two authors, a reply, a boost, a reaction and a poll.
            var values: [String] = []
            for index in 0..<40 {
                let profile = index % 2 + 1
                let created = index < 20 ? 1_735_732_800 + index : 1_738_411_200 + index  // January, February 2025
                let kind =
                    switch index % 5 {
                    case 1: "'https://x.example/s.org#1', NULL, '', 'a reply', NULL"
                    case 2: "NULL, 'https://x.example/s.org#2', '', '', NULL"
                    case 3: "'https://x.example/s.org#3', NULL, '👍', '', NULL"
                    case 4: "NULL, NULL, '', 'a poll', 1739000000"
                    default: "NULL, NULL, '', 'a post', NULL"
                    }
                values.append(
                    "(\(profile), 'p\(index)', 's', \(created), 0, 'h', " + kind + ")")
            }
            try connection.execute(
                sql: """
                    INSERT INTO posts (profile_id, post_id, search_text, created_at, updated_at, hash,
                        reply_to, include, mood, content, poll_end)
                    VALUES \(values.joined(separator: ", "))
                    """)
            var (stored, counted) = try counters(connection)
            #expect(stored.count == 4)
            #expect(stored == counted)
            try connection.execute(sql: "UPDATE posts SET reply_to = NULL, content = 'edited' WHERE post_id = 'p1'")
            try connection.execute(sql: "DELETE FROM posts WHERE post_id IN ('p2', 'p3', 'p24')")
            (stored, counted) = try counters(connection)
            #expect(stored == counted)
            // A profile's posts go by cascade: one delete of many rows.
            try connection.execute(sql: "DELETE FROM profiles WHERE id = 2")
            (stored, counted) = try counters(connection)
            #expect(stored.count == 2)
            #expect(stored == counted)
        }
    }
}
