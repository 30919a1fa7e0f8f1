/// The relay schema's history and tables as both engines have them: one list of migration names (each
/// engine registers its own DDL for each, in this order), and the tables in foreign-key order, which
/// `relay migrate` copies from SQLite to PostgreSQL.
package enum RelayMigrationName: String, CaseIterable, Sendable {
    /// Feeds, profiles, posts, votes, mentions, the notification log and the search index.
    case v1 = "relay 1: feeds, profiles, posts, votes, mentions, log, search"
    /// The follows lists each feed declared.
    case v2 = "relay 2: declared follows"
    /// The last downloaded file of each feed.
    case v3 = "relay 3: last downloaded feed files"
    /// Feed URLs rewritten in their canonical form.
    case v4 = "relay 4: canonical feed URLs"
    /// Post counters by month, author and group.
    case v5 = "relay 5: post counters by month, author and group"
    /// Bridges to ActivityPub accounts and RSS/Atom feeds.
    case v7 = "relay 7: bridges"
    /// The outgoing Webmention queue.
    case v8 = "relay 8: outgoing webmentions"
    /// Leases of the crawl list for several crawlers.
    case v9 = "relay 9: crawl leases"
    /// Posts indexed and counted per feed; SQLite's full-text index without positions.
    case v10 = "relay 10: posts indexed and counted per feed, full-text index without positions"
    /// Post counters kept once per statement on PostgreSQL (SQLite's indexer already counts per feed).
    case v11 = "relay 11: post counters kept per statement"
    /// The feeds each generation changed, so the response cache drops only the answers that depend on them.
    case v12 = "relay 12: feeds changed per generation"
    /// Feed files kept gzip-compressed, in a table with row ids.
    case v13 = "relay 13: feed files kept compressed"
    /// Post URLs derived from the feed and the post ID instead of stored: no `posts.url`, no `posts_url`.
    case v14 = "relay 14: post URLs derived from feed and ID"
    /// SQLite's trigram index keyed by the post's minute and row id, so it lists matches newest first.
    case v15 = "relay 15: search index keyed by time"
}

/// The relay's tables.
package enum RelayTables {
    /// Every table of served and crawl data, parents before children (the foreign keys hold at every
    /// insert when copied in this order). The search index and the post counters are not listed: each
    /// engine derives them from the posts. Nor is `feed_changes`, the record of what each generation
    /// changed, which only running relays read.
    package static let inForeignKeyOrder = [
        "feeds", "profiles", "links", "contacts", "follows", "posts", "post_tags", "poll_options", "poll_votes",
        "mentions", "pending_mentions", "notifications", "declared_follows", "feed_files", "meta", "bridges",
        "outgoing_webmentions",
    ]

    /// The tables whose `id` is an identity column (a sequence on PostgreSQL, `AUTOINCREMENT` on SQLite).
    package static let withIdentity = ["feeds", "profiles", "posts", "notifications", "outgoing_webmentions"]
}
