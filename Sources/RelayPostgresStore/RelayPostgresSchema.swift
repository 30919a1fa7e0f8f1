package import PostgresStore
import RelaySQLStore

/// The relay's schema on PostgreSQL: the SQLite store's migrations (`RelayStore`'s `RelaySchema`,
/// documented in `relay/SCHEMA.md`) under the same names, in the same order, in PostgreSQL's dialect, so a
/// database records the same history on either engine.
///
/// The translation: `INTEGER PRIMARY KEY [AUTOINCREMENT]` becomes an identity column (never reused, like
/// AUTOINCREMENT), `INTEGER` `int8`, `REAL` (Unix seconds) `float8`, `TEXT` `text`; `WITHOUT ROWID` has no
/// counterpart; the FTS5 trigram table and its triggers become a GIN trigram index (`pg_trgm`) on
/// `posts.search_text`, which `ILIKE '%…%'` uses. Migration 4 rewrote feed URLs stored by older builds
/// to their canonical form; a PostgreSQL database only ever holds canonical URLs, so it records the
/// migration and changes nothing.
///
/// Never edit a migration that has shipped: append a new one, to both engines.
package enum RelayPostgresSchema {

    /// Every migration, in order.
    package static var migrator: Migrator {
        var migrator = Migrator()
        migrator.registerMigration(RelayMigrationName.v1.rawValue, statements: version1)
        migrator.registerMigration(RelayMigrationName.v2.rawValue) { db in
            try db.execute(sql: version2)
        }
        migrator.registerMigration(RelayMigrationName.v3.rawValue) { db in
            try db.execute(sql: version3)
        }
        migrator.registerMigration(RelayMigrationName.v4.rawValue) { _ in
            // Nothing to rewrite: see the type's documentation.
        }
        migrator.registerMigration(RelayMigrationName.v5.rawValue, statements: version5)
        migrator.registerMigration(RelayMigrationName.v7.rawValue, statements: version7)
        migrator.registerMigration(RelayMigrationName.v8.rawValue, statements: version8)
        migrator.registerMigration(RelayMigrationName.v9.rawValue, statements: version9)
        migrator.registerMigration(RelayMigrationName.v10.rawValue) { _ in
            // SQLite's FTS5 table and insert triggers changed; the trigram index and triggers here stay.
        }
        migrator.registerMigration(RelayMigrationName.v11.rawValue, statements: version11)
        migrator.registerMigration(RelayMigrationName.v12.rawValue, statements: RelaySharedDDL.version12)
        migrator.registerMigration(RelayMigrationName.v13.rawValue, statements: version13)
        migrator.registerMigration(RelayMigrationName.v14.rawValue, statements: RelaySharedDDL.version14)
        migrator.registerMigration(RelayMigrationName.v15.rawValue) { _ in
            // SQLite's FTS5 table is keyed by time; the trigram index here is on the posts themselves.
        }
        return migrator
    }

    /// Feed files kept as bytes, gzip-compressed by the store (`RelayFeedFileTable`): the column becomes
    /// `bytea` (the files already kept become their UTF-8 bytes, which read back as before), stored out of
    /// line without TOAST's own compression, which would only spend time on bytes that are compressed.
    private static let version13 = [
        "ALTER TABLE feed_files ALTER COLUMN content TYPE bytea USING convert_to(content, 'UTF8')",
        "ALTER TABLE feed_files ALTER COLUMN content SET STORAGE EXTERNAL",
    ]

    /// Inserted and deleted posts counted once per statement, from its transition table, instead of once
    /// per row: the row trigger updated the same few counter rows once for every post of a feed (with a
    /// dead row version each time), the most expensive part of inserting a post. A changed post is still
    /// counted by the row trigger of migration 5.
    private static var version11: [String] {
        let columns = "month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls"
        func grouped(_ table: String) -> String {
            "SELECT \(countsKey(of: "r")), count(*), \(counts(of: "r").map { "sum(\($0))" }.joined(separator: ", ")) "
                + "FROM \(table) AS r GROUP BY 1, 2, 3"
        }
        return [
            "DROP TRIGGER posts_counts_insert_delete ON posts",
            """
            CREATE FUNCTION posts_count_statement() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'DELETE' THEN
                    UPDATE post_counts AS c SET total = c.total - k.total, posts = c.posts - k.posts,
                        replies = c.replies - k.replies, boosts = c.boosts - k.boosts,
                        reactions = c.reactions - k.reactions, polls = c.polls - k.polls
                    FROM (\(grouped("old_posts"))) AS k(\(columns))
                    WHERE c.month = k.month AND c.profile_id = k.profile_id AND c.group_slug = k.group_slug;
                ELSE
                    INSERT INTO post_counts AS c (\(columns))
                    \(grouped("new_posts"))
                    ON CONFLICT (month, profile_id, group_slug) DO UPDATE SET
                        total = c.total + excluded.total, posts = c.posts + excluded.posts,
                        replies = c.replies + excluded.replies, boosts = c.boosts + excluded.boosts,
                        reactions = c.reactions + excluded.reactions, polls = c.polls + excluded.polls;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            """
            CREATE TRIGGER posts_counts_insert AFTER INSERT ON posts REFERENCING NEW TABLE AS new_posts
            FOR EACH STATEMENT EXECUTE FUNCTION posts_count_statement()
            """,
            """
            CREATE TRIGGER posts_counts_delete AFTER DELETE ON posts REFERENCING OLD TABLE AS old_posts
            FOR EACH STATEMENT EXECUTE FUNCTION posts_count_statement()
            """,
        ]
    }

    /// The crawl leases (SQLite's migration 9): the crawler holding each feed and until when, so several
    /// crawlers on one database never fetch a feed at once (see
    /// ``RelayPostgresDatabase/claimCrawlEntries(owner:after:limit:leaseFor:now:)``).
    private static let version9: [String] = [
        "ALTER TABLE feeds ADD COLUMN lease_owner text",
        "ALTER TABLE feeds ADD COLUMN lease_until float8",
    ]

    /// The outgoing Webmention queue (SQLite's migration 8).
    private static let version8: [String] =
        [
            """
            CREATE TABLE outgoing_webmentions (
                id int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                source text NOT NULL,
                target text NOT NULL,
                status text NOT NULL,
                attempts int8 NOT NULL,
                next_attempt float8 NOT NULL,
                last_error text,
                created_at float8 NOT NULL,
                updated_at float8 NOT NULL,
                UNIQUE (source, target)
            )
            """
        ] + RelaySharedDDL.version8

    /// The bridges: one row per bridged ActivityPub account or RSS/Atom/JSON feed (SQLite's migration 7).
    private static let version7: [String] =
        [
            """
            CREATE TABLE bridges (
                kind text NOT NULL,
                source text NOT NULL,
                feed text NOT NULL UNIQUE,
                actor_url text,
                etag text,
                last_modified text,
                content text NOT NULL,
                content_changed_at float8 NOT NULL,
                last_refreshed_at float8 NOT NULL,
                last_accessed_at float8 NOT NULL,
                created_at float8 NOT NULL,
                PRIMARY KEY (kind, source)
            )
            """
        ] + RelaySharedDDL.version7

    /// The `post_counts` key of a post (`NEW` or `OLD`): UTC month of `created_at`, author, group slug
    /// (`''` for none), as SQLite's `strftime('%Y-%m', created_at, 'unixepoch')` gives it.
    private static func countsKey(of row: String) -> String {
        "to_char(to_timestamp(\(row).created_at) AT TIME ZONE 'UTC', 'YYYY-MM'), \(row).profile_id, "
            + "coalesce(\(row).group_slug, '')"
    }

    /// What a post adds to (or takes from) the counters: posts, replies, boosts, reactions, polls, as
    /// `/stats/` classifies them (the same expressions as SQLite's migration 5).
    private static func counts(of row: String) -> [String] {
        [
            "\(row).reply_to IS NULL AND \(row).include IS NULL",
            "\(row).reply_to IS NOT NULL AND NOT (\(row).mood <> '' AND \(row).content = '')",
            "\(row).include IS NOT NULL AND \(row).reply_to IS NULL",
            "\(row).reply_to IS NOT NULL AND \(row).mood <> '' AND \(row).content = ''",
            "\(row).poll_end IS NOT NULL",
        ].map { "(\($0))::int" }
    }

    /// Counters of posts by UTC month, author and group slug, kept by one trigger on `posts` in the same
    /// transaction as every insert, update and delete (cascades included), as on SQLite. Rows that reach
    /// zero stay (`total = 0`).
    private static var version5: [String] {
        [
            """
            CREATE TABLE post_counts (
                month text NOT NULL,
                profile_id int8 NOT NULL,
                group_slug text NOT NULL,
                total int8 NOT NULL,
                posts int8 NOT NULL,
                replies int8 NOT NULL,
                boosts int8 NOT NULL,
                reactions int8 NOT NULL,
                polls int8 NOT NULL,
                PRIMARY KEY (month, profile_id, group_slug)
            )
            """,
            """
            CREATE FUNCTION posts_count() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP IN ('UPDATE', 'DELETE') THEN
                    UPDATE post_counts AS c SET total = c.total - 1, posts = c.posts - k.posts,
                        replies = c.replies - k.replies, boosts = c.boosts - k.boosts,
                        reactions = c.reactions - k.reactions, polls = c.polls - k.polls
                    FROM (SELECT \(countsKey(of: "OLD")), \(counts(of: "OLD").joined(separator: ", ")))
                        AS k(month, profile_id, group_slug, posts, replies, boosts, reactions, polls)
                    WHERE c.month = k.month AND c.profile_id = k.profile_id AND c.group_slug = k.group_slug;
                END IF;
                IF TG_OP IN ('INSERT', 'UPDATE') THEN
                    INSERT INTO post_counts AS c
                        (month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls)
                    VALUES (\(countsKey(of: "NEW")), 1, \(counts(of: "NEW").joined(separator: ", ")))
                    ON CONFLICT (month, profile_id, group_slug) DO UPDATE SET
                        total = c.total + 1, posts = c.posts + excluded.posts, replies = c.replies + excluded.replies,
                        boosts = c.boosts + excluded.boosts, reactions = c.reactions + excluded.reactions,
                        polls = c.polls + excluded.polls;
                END IF;
                RETURN NULL;
            END
            $$
            """,
            "CREATE TRIGGER posts_counts_insert_delete AFTER INSERT OR DELETE ON posts FOR EACH ROW EXECUTE FUNCTION posts_count()",
            """
            CREATE TRIGGER posts_counts_update
            AFTER UPDATE OF created_at, profile_id, group_slug, reply_to, include, mood, content, poll_end ON posts
            FOR EACH ROW EXECUTE FUNCTION posts_count()
            """,
            """
            INSERT INTO post_counts (month, profile_id, group_slug, total, posts, replies, boosts, reactions, polls)
            SELECT \(countsKey(of: "posts")), count(*),
                \(counts(of: "posts").map { "sum(\($0))" }.joined(separator: ", "))
            FROM posts GROUP BY 1, 2, 3
            """,
        ]
    }

    /// The follows each feed declared when it was last downloaded.
    private static let version2 = """
        CREATE TABLE declared_follows (
            feed text PRIMARY KEY,
            follows text NOT NULL
        )
        """

    /// The text of each feed's last downloaded file, and when it was downloaded.
    private static let version3 = """
        CREATE TABLE feed_files (
            feed text PRIMARY KEY,
            content text NOT NULL,
            fetched_at float8 NOT NULL
        )
        """

    /// The first schema.
    private static let version1: [String] =
        [
            // A trusted extension since PostgreSQL 13: the database owner may create it.
            "CREATE EXTENSION IF NOT EXISTS pg_trgm",
            """
            CREATE TABLE feeds (
                id int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                url text NOT NULL UNIQUE,
                added_at float8 NOT NULL,
                etag text,
                last_modified text,
                last_success float8,
                failures int8 NOT NULL DEFAULT 0,
                next_attempt float8,
                last_error text
            )
            """,
            """
            CREATE TABLE profiles (
                id int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                feed text NOT NULL UNIQUE,
                title text NOT NULL DEFAULT '',
                nick text NOT NULL DEFAULT '',
                description text NOT NULL DEFAULT '',
                avatar text NOT NULL DEFAULT '',
                location text NOT NULL DEFAULT '',
                birthday text,
                languages text NOT NULL DEFAULT '',
                pinned text NOT NULL DEFAULT '',
                version text NOT NULL DEFAULT '',
                created_at float8 NOT NULL,
                updated_at float8 NOT NULL
            )
            """,
            """
            CREATE TABLE links (
                profile_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                url text NOT NULL,
                PRIMARY KEY (profile_id, url)
            )
            """,
            """
            CREATE TABLE contacts (
                profile_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                type text NOT NULL,
                value text NOT NULL,
                PRIMARY KEY (profile_id, type, value)
            )
            """,
            """
            CREATE TABLE follows (
                follower_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                followed_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                nickname text NOT NULL DEFAULT '',
                created_at float8 NOT NULL,
                PRIMARY KEY (follower_id, followed_id)
            )
            """,
            """
            CREATE TABLE posts (
                id int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                profile_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                post_id text NOT NULL,
                url text NOT NULL,
                content text NOT NULL,
                search_text text NOT NULL,
                lang text NOT NULL DEFAULT '',
                tags text NOT NULL DEFAULT '',
                client text NOT NULL DEFAULT '',
                reply_to text,
                mood text NOT NULL DEFAULT '',
                group_slug text,
                include text,
                poll_end float8,
                poll_option text,
                created_at float8 NOT NULL,
                updated_at float8 NOT NULL,
                hash text NOT NULL,
                UNIQUE (profile_id, post_id)
            )
            """,
            // What SQLite's FTS5 trigram table `post_search` does: substring search over `search_text`.
            "CREATE INDEX posts_search_trgm ON posts USING gin (search_text gin_trgm_ops)",
            """
            CREATE TABLE post_tags (
                post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                tag text NOT NULL,
                PRIMARY KEY (tag, post_id)
            )
            """,
            """
            CREATE TABLE poll_options (
                post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                position int8 NOT NULL,
                text text NOT NULL,
                PRIMARY KEY (post_id, position)
            )
            """,
            """
            CREATE TABLE poll_votes (
                vote_post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                poll_post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                option text NOT NULL,
                created_at float8 NOT NULL,
                PRIMARY KEY (vote_post_id, poll_post_id)
            )
            """,
            """
            CREATE TABLE mentions (
                post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                profile_id int8 NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                nickname text NOT NULL DEFAULT '',
                created_at float8 NOT NULL,
                PRIMARY KEY (post_id, profile_id)
            )
            """,
            """
            CREATE TABLE pending_mentions (
                post_id int8 NOT NULL REFERENCES posts(id) ON DELETE CASCADE,
                feed text NOT NULL,
                nickname text NOT NULL DEFAULT '',
                PRIMARY KEY (feed, post_id)
            )
            """,
            """
            CREATE TABLE notifications (
                id int8 GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
                kind text NOT NULL,
                post text NOT NULL,
                emoji text,
                parent text,
                boosted text,
                target_feed text NOT NULL,
                created_at float8 NOT NULL
            )
            """,
            "CREATE TABLE meta (key text PRIMARY KEY, value text NOT NULL)",
        ] + RelaySharedDDL.version1
}
