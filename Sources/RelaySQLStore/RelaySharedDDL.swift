/// The schema statements both engines run as they are, by the migration that adds them (each engine's
/// schema runs them after its own tables of that migration): the indexes, and the first meta rows. What
/// differs (column types, the search index, triggers) stays in each engine's schema.
package enum RelaySharedDDL {
    /// Migration 1's indexes and the generation rows.
    package static let version1 = [
        "CREATE INDEX feeds_last_success ON feeds(last_success) WHERE last_success IS NOT NULL",
        "CREATE INDEX follows_followed ON follows(followed_id)",
        "CREATE INDEX posts_url ON posts(url)",
        "CREATE INDEX posts_reply_to ON posts(reply_to) WHERE reply_to IS NOT NULL",
        "CREATE INDEX posts_include ON posts(include) WHERE include IS NOT NULL",
        "CREATE INDEX posts_created ON posts(created_at, post_id, url)",
        "CREATE INDEX posts_group ON posts(group_slug, created_at, post_id, url) WHERE group_slug IS NOT NULL",
        "CREATE INDEX posts_polls ON posts(created_at, post_id, url) WHERE poll_end IS NOT NULL",
        "CREATE INDEX posts_profile_polls ON posts(profile_id) WHERE poll_end IS NOT NULL",
        "CREATE INDEX posts_profile_votes ON posts(profile_id) WHERE poll_option IS NOT NULL",
        "CREATE INDEX post_tags_post ON post_tags(post_id)",
        "CREATE INDEX poll_votes_poll ON poll_votes(poll_post_id, created_at)",
        "CREATE INDEX mentions_profile ON mentions(profile_id)",
        "CREATE INDEX pending_mentions_post ON pending_mentions(post_id)",
        "INSERT INTO meta (key, value) VALUES ('store.generation', '0'), ('store.changed_at', '0')",
    ]

    /// Migration 7's index (bridges).
    package static let version7 = ["CREATE INDEX bridges_accessed ON bridges(last_accessed_at)"]

    /// Migration 12: the feeds each generation changed (``RelayMetaTable/bump(_:dialect:now:scope:)``), the
    /// feed `''` meaning every feed; read by generation, pruned from the oldest.
    package static let version12 = [
        "CREATE TABLE feed_changes (generation BIGINT NOT NULL, feed TEXT NOT NULL, PRIMARY KEY (generation, feed))"
    ]

    /// Migration 14: a post's URL is its profile's feed, `#` and its ID (``RelayPostURL``), no longer stored.
    /// Its index goes, the covering indexes of the newest-first lists lose it as their last column (a tie of
    /// instant and ID is sorted by the derived URL after the index walk), then the column goes (SQLite drops a
    /// column only once no index names it).
    package static let version14 = [
        "DROP INDEX posts_url",
        "DROP INDEX posts_created",
        "DROP INDEX posts_group",
        "DROP INDEX posts_polls",
        "ALTER TABLE posts DROP COLUMN url",
        "CREATE INDEX posts_created ON posts(created_at, post_id)",
        "CREATE INDEX posts_group ON posts(group_slug, created_at, post_id) WHERE group_slug IS NOT NULL",
        "CREATE INDEX posts_polls ON posts(created_at, post_id) WHERE poll_end IS NOT NULL",
    ]

    /// Migration 8's index (the Webmention queue).
    package static let version8 = [
        "CREATE INDEX outgoing_webmentions_due ON outgoing_webmentions(status, next_attempt)"
    ]
}
