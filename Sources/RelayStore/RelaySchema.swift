import RelaySQLStore
import SQLiteStore

/// The relay's SQLite schema as named, append-only migrations (documented in `relay/SCHEMA.md`).
///
/// Never edit a migration that has shipped: append a new one.
enum RelaySchema {

    /// Every migration, in order.
    static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration(RelayMigrationName.v1.rawValue, statements: version1)
        migrator.registerMigration(RelayMigrationName.v2.rawValue) { db in
            try db.execute(sql: version2)
        }
        migrator.registerMigration(RelayMigrationName.v3.rawValue) { db in
            try db.execute(sql: version3)
        }
        migrator.registerMigration(RelayMigrationName.v4.rawValue) { db in
            try RelayCanonicalURLs.migrate(db)
        }
        migrator.registerMigration(RelayMigrationName.v5.rawValue, statements: version5)
        migrator.registerMigration(RelayMigrationName.v7.rawValue, statements: version7)
        migrator.registerMigration(RelayMigrationName.v8.rawValue, statements: version8)
        migrator.registerMigration(RelayMigrationName.v9.rawValue, statements: version9)
        migrator.registerMigration(RelayMigrationName.v10.rawValue, statements: version10)
        migrator.registerMigration(RelayMigrationName.v11.rawValue) { _ in
            // PostgreSQL's counting triggers changed; this engine's indexer counts new posts per feed since 10.
        }
        migrator.registerMigration(RelayMigrationName.v12.rawValue, statements: RelaySharedDDL.version12)
        migrator.registerMigration(RelayMigrationName.v13.rawValue, statements: version13)
        migrator.registerMigration(RelayMigrationName.v14.rawValue, statements: RelaySharedDDL.version14)
        migrator.registerMigration(RelayMigrationName.v15.rawValue, statements: version15)
        return migrator
    }

    /// Feed files kept as bytes, gzip-compressed by the store (`RelayFeedFileTable`): the column becomes a
    /// `BLOB`; the files already kept move over as their UTF-8 bytes, which read back as before. The table
    /// now has row ids: in a `WITHOUT ROWID` table a row keeps at most about a quarter of a page in place and
    /// starts an overflow page for the rest, so a compressed file of 2 KB took two pages.
    private static let version13 = [
        """
        CREATE TABLE feed_files_packed (
            feed TEXT PRIMARY KEY,
            content BLOB NOT NULL,
            fetched_at REAL NOT NULL
        )
        """,
        """
        INSERT INTO feed_files_packed (feed, content, fetched_at)
        SELECT feed, CAST(content AS BLOB), fetched_at FROM feed_files
        """,
        "DROP TABLE feed_files",
        "ALTER TABLE feed_files_packed RENAME TO feed_files",
    ]

    /// The database file's size in bytes: its pages (the WAL not counted).
    static let databaseSize = "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()"

    /// The indexer counts and indexes a feed's new posts itself, with ``countNewPosts`` and ``indexNewPosts``
    /// once per run of row ids, instead of two `AFTER INSERT` triggers: a trigger makes every `INSERT` a
    /// statement that SQLite journals (the old image of each page it changes, ten or so a post), which on a
    /// cold crawl wrote many times the database's size. The trigram index keeps no positions
    /// (`detail=none`): a search `MATCH`es single trigrams AND'ed and `instr` checks the rest, so positions
    /// were never read, and they were two thirds of the index. The update and delete triggers stay.
    private static let version10: [String] = [
        "DROP TRIGGER posts_search_insert",
        "DROP TRIGGER posts_counts_insert",
        "DROP TABLE post_search",
        """
        CREATE VIRTUAL TABLE post_search USING fts5(
            search_text, content='posts', content_rowid='id', tokenize='trigram', detail='none'
        )
        """,
        "INSERT INTO post_search (post_search) VALUES ('rebuild')",
    ]

    /// Counts the posts with row ids from `?1` to `?2` (all new) into `post_counts`.
    static let countNewPosts = """
        INSERT INTO post_counts (month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls)
        SELECT \(countsKey(of: "p").joined(separator: ", ")), count(*),
            \(counts(of: "p").dropFirst().map { "sum(\($0))" }.joined(separator: ", "))
        FROM posts p WHERE p.id BETWEEN ?1 AND ?2 GROUP BY 1, 2, 3
        ON CONFLICT (month, profile_id, group_slug) DO UPDATE SET
            total = total + excluded.total, posts = posts + excluded.posts, replies = replies + excluded.replies,
            boosts = boosts + excluded.boosts, reactions = reactions + excluded.reactions,
            polls = polls + excluded.polls
        """

    /// Adds the posts with row ids from `?1` to `?2` (all new) that have text to the full-text index.
    static let indexNewPosts = """
        INSERT INTO post_search (rowid, search_text)
        SELECT \(RelaySearchKey.sql("posts")), search_text FROM posts WHERE id BETWEEN ?1 AND ?2 AND search_text <> ''
        """

    /// The trigram index keyed by time (``RelaySearchKey``), so it lists a term's posts newest first, and
    /// contentless: the search reads only its keys, and the triggers give the old text to remove. Posts
    /// without text get no row, and no column sizes are kept (`columnsize=0`: nothing ranks by them;
    /// 11 bytes a post at 10M posts). Rebuilt from the posts.
    private static let version15: [String] = [
        "DROP TRIGGER posts_search_delete",
        "DROP TRIGGER posts_search_update",
        "DROP TABLE post_search",
        """
        CREATE VIRTUAL TABLE post_search USING fts5(
            search_text, content='', tokenize='trigram', detail='none', columnsize=0
        )
        """,
        """
        INSERT INTO post_search (rowid, search_text)
        SELECT \(RelaySearchKey.sql("posts")), search_text FROM posts WHERE search_text <> ''
        """,
        """
        CREATE TRIGGER posts_search_delete AFTER DELETE ON posts WHEN old.search_text <> '' BEGIN
            INSERT INTO post_search (post_search, rowid, search_text)
            VALUES ('delete', \(RelaySearchKey.sql("old")), old.search_text);
        END
        """,
        """
        CREATE TRIGGER posts_search_update AFTER UPDATE OF search_text, created_at ON posts BEGIN
            INSERT INTO post_search (post_search, rowid, search_text)
            SELECT 'delete', \(RelaySearchKey.sql("old")), old.search_text WHERE old.search_text <> '';
            INSERT INTO post_search (rowid, search_text)
            SELECT \(RelaySearchKey.sql("new")), new.search_text WHERE new.search_text <> '';
        END
        """,
    ]

    /// The crawl lease of each feed (`lease_owner`, `lease_until`, Unix seconds): kept for the PostgreSQL
    /// store's parity, where several crawlers share the crawl list; one SQLite relay crawls alone and
    /// leaves them empty.
    private static let version9: [String] = [
        "ALTER TABLE feeds ADD COLUMN lease_owner TEXT",
        "ALTER TABLE feeds ADD COLUMN lease_until REAL",
    ]

    /// The outgoing Webmention queue (`relay-api.md` §4.7): one row per (linking post, linked page), its
    /// status (`pending`, `sent`, `failed`, `no_endpoint`), attempts and next attempt.
    private static let version8: [String] =
        [
            """
            CREATE TABLE outgoing_webmentions (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                source TEXT NOT NULL,
                target TEXT NOT NULL,
                status TEXT NOT NULL,
                attempts INTEGER NOT NULL,
                next_attempt REAL NOT NULL,
                last_error TEXT,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                UNIQUE (source, target)
            )
            """
        ] + RelaySharedDDL.version8

    /// The bridges (`relay-api.md` §2.20): one row per ActivityPub account or RSS/Atom/JSON feed served as
    /// a virtual `social.org`, with its generated file, the source's validators and the refresh and access
    /// times. Its profile and posts live in `profiles` and `posts` under the virtual feed URL.
    private static let version7: [String] =
        [
            """
            CREATE TABLE bridges (
                kind TEXT NOT NULL,
                source TEXT NOT NULL,
                feed TEXT NOT NULL UNIQUE,
                actor_url TEXT,
                etag TEXT,
                last_modified TEXT,
                content TEXT NOT NULL,
                content_changed_at REAL NOT NULL,
                last_refreshed_at REAL NOT NULL,
                last_accessed_at REAL NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (kind, source)
            ) WITHOUT ROWID
            """
        ] + RelaySharedDDL.version7

    /// The columns of a `post_counts` row that a post adds (`new`) or takes away (`old`): total, posts,
    /// replies, boosts, reactions, polls, as `/stats/` classifies them.
    private static func counts(of row: String) -> [String] {
        [
            "1",
            "\(row).reply_to IS NULL AND \(row).include IS NULL",
            "\(row).reply_to IS NOT NULL AND NOT (\(row).mood <> '' AND \(row).content = '')",
            "\(row).include IS NOT NULL AND \(row).reply_to IS NULL",
            "\(row).reply_to IS NOT NULL AND \(row).mood <> '' AND \(row).content = ''",
            "\(row).poll_end IS NOT NULL",
        ]
    }

    /// The `post_counts` key of a post: UTC month of `created_at`, author, group slug (`''` for none).
    private static func countsKey(of row: String) -> [String] {
        [
            "coalesce(strftime('%Y-%m', \(row).created_at, 'unixepoch'), '')", "\(row).profile_id",
            "coalesce(\(row).group_slug, '')",
        ]
    }

    /// The statement that counts the post `new` in.
    private static var addNewPost: String {
        """
        INSERT INTO post_counts (month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls)
        VALUES (\((countsKey(of: "new") + counts(of: "new")).joined(separator: ", ")))
        ON CONFLICT (month, profile_id, group_slug) DO UPDATE SET
            total = total + 1, posts = posts + excluded.posts, replies = replies + excluded.replies,
            boosts = boosts + excluded.boosts, reactions = reactions + excluded.reactions,
            polls = polls + excluded.polls;
        """
    }

    /// The statement that counts the post `old` out.
    private static var removeOldPost: String {
        let names = ["total", "posts", "replies", "boosts", "reactions", "polls"]
        let key = countsKey(of: "old")
        let changes = zip(names, counts(of: "old")).map { "\($0) = \($0) - (\($1))" }.joined(separator: ", ")
        return """
            UPDATE post_counts SET \(changes)
            WHERE month = \(key[0]) AND profile_id = \(key[1]) AND group_slug = \(key[2]);
            """
    }

    /// Counters of posts by UTC month, author and group slug, kept by triggers on `posts` in the same
    /// transaction as every insert, update and delete (cascades included), so `/stats/` reads a few small
    /// rows per author and month instead of scanning every post. Rows that reach zero stay (`total = 0`).
    private static var version5: [String] {
        [
            """
            CREATE TABLE post_counts (
                month TEXT NOT NULL,
                profile_id INTEGER NOT NULL,
                group_slug TEXT NOT NULL,
                total INTEGER NOT NULL,
                posts INTEGER NOT NULL,
                replies INTEGER NOT NULL,
                boosts INTEGER NOT NULL,
                reactions INTEGER NOT NULL,
                polls INTEGER NOT NULL,
                PRIMARY KEY (month, profile_id, group_slug)
            ) WITHOUT ROWID
            """,
            "CREATE TRIGGER posts_counts_insert AFTER INSERT ON posts BEGIN \(addNewPost) END",
            "CREATE TRIGGER posts_counts_delete AFTER DELETE ON posts BEGIN \(removeOldPost) END",
            """
            CREATE TRIGGER posts_counts_update
            AFTER UPDATE OF created_at, profile_id, group_slug, reply_to, include, mood, content, poll_end ON posts
            BEGIN \(removeOldPost) \(addNewPost) END
            """,
            """
            INSERT INTO post_counts (month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls)
            SELECT \(countsKey(of: "posts").joined(separator: ", ")), count(*),
                \(counts(of: "posts").dropFirst().map { "sum(\($0))" }.joined(separator: ", "))
            FROM posts GROUP BY 1, 2, 3
            """,
        ]
    }

    /// The follows each feed declared when it was last downloaded (one `nickname TAB url` line each, an
    /// empty nickname for none), kept for the crawler's follows discovery after a 304.
    private static let version2 = """
        CREATE TABLE declared_follows (
            feed TEXT PRIMARY KEY,
            follows TEXT NOT NULL
        ) WITHOUT ROWID
        """

    /// The text of each feed's last downloaded file (`200`, decoded, UTF-8 checked), which `/feed-content/`
    /// serves instead of fetching the feed again, and when it was downloaded.
    private static let version3 = """
        CREATE TABLE feed_files (
            feed TEXT PRIMARY KEY,
            content TEXT NOT NULL,
            fetched_at REAL NOT NULL
        ) WITHOUT ROWID
        """

    /// The first schema.
    private static let version1: [String] =
        [
            """
            CREATE TABLE feeds (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                url TEXT NOT NULL UNIQUE,
                added_at REAL NOT NULL,
                etag TEXT,
                last_modified TEXT,
                last_success REAL,
                failures INTEGER NOT NULL DEFAULT 0,
                next_attempt REAL,
                last_error TEXT
            )
            """,
            """
            CREATE TABLE profiles (
                id INTEGER PRIMARY KEY,
                feed TEXT NOT NULL UNIQUE,
                title TEXT NOT NULL DEFAULT '',
                nick TEXT NOT NULL DEFAULT '',
                description TEXT NOT NULL DEFAULT '',
                avatar TEXT NOT NULL DEFAULT '',
                location TEXT NOT NULL DEFAULT '',
                birthday TEXT,
                languages TEXT NOT NULL DEFAULT '',
                pinned TEXT NOT NULL DEFAULT '',
                version TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL
            )
            """,
            """
            CREATE TABLE links (
                profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                url TEXT NOT NULL,
                PRIMARY KEY (profile_id, url)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE contacts (
                profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                type TEXT NOT NULL,
                value TEXT NOT NULL,
                PRIMARY KEY (profile_id, type, value)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE follows (
                follower_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                followed_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                nickname TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                PRIMARY KEY (follower_id, followed_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE posts (
                id INTEGER PRIMARY KEY,
                profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                post_id TEXT NOT NULL,
                url TEXT NOT NULL,
                content TEXT NOT NULL,
                search_text TEXT NOT NULL,
                lang TEXT NOT NULL DEFAULT '',
                tags TEXT NOT NULL DEFAULT '',
                client TEXT NOT NULL DEFAULT '',
                reply_to TEXT,
                mood TEXT NOT NULL DEFAULT '',
                group_slug TEXT,
                include TEXT,
                poll_end REAL,
                poll_option TEXT,
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                hash TEXT NOT NULL,
                UNIQUE (profile_id, post_id)
            )
            """,
            """
            CREATE TABLE post_tags (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                tag TEXT NOT NULL,
                PRIMARY KEY (tag, post_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE poll_options (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                text TEXT NOT NULL,
                PRIMARY KEY (post_id, position)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE poll_votes (
                vote_post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                poll_post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                option TEXT NOT NULL,
                created_at REAL NOT NULL,
                PRIMARY KEY (vote_post_id, poll_post_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE mentions (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                nickname TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                PRIMARY KEY (post_id, profile_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE pending_mentions (
                post_id INTEGER NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                feed TEXT NOT NULL,
                nickname TEXT NOT NULL DEFAULT '',
                PRIMARY KEY (feed, post_id)
            ) WITHOUT ROWID
            """,
            """
            CREATE TABLE notifications (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,
                post TEXT NOT NULL,
                emoji TEXT,
                parent TEXT,
                boosted TEXT,
                target_feed TEXT NOT NULL,
                created_at REAL NOT NULL
            )
            """,
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
            """
            CREATE VIRTUAL TABLE post_search USING fts5(
                search_text, content='posts', content_rowid='id', tokenize='trigram'
            )
            """,
            """
            CREATE TRIGGER posts_search_insert AFTER INSERT ON posts BEGIN
                INSERT INTO post_search (rowid, search_text) VALUES (new.id, new.search_text);
            END
            """,
            """
            CREATE TRIGGER posts_search_delete AFTER DELETE ON posts BEGIN
                INSERT INTO post_search (post_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
            END
            """,
            """
            CREATE TRIGGER posts_search_update AFTER UPDATE OF search_text ON posts BEGIN
                INSERT INTO post_search (post_search, rowid, search_text) VALUES ('delete', old.id, old.search_text);
                INSERT INTO post_search (rowid, search_text) VALUES (new.id, new.search_text);
            END
            """,
        ] + RelaySharedDDL.version1
}
