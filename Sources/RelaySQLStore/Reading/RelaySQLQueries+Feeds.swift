import Foundation
package import RelayCore

/// The questions keyed by a feed: the crawl list, mentions, notifications, reactions, replies, followers
/// (relay API §2.2, §2.4–2.7, §2.15).
extension RelaySQLQueries {
    /// Every crawl-list URL in insertion order, bridges left out.
    package func feeds() throws -> [String] {
        try strings("SELECT url FROM feeds ORDER BY id").filter { !RelayListing.isBridge($0) }
    }

    /// The posts mentioning `feed`, newest first.
    package func mentions(of feed: String) throws -> [String]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try mentionRows(profileID).map(\.url)
    }

    /// The four lists of `feed` merged, newest first, ties in kind order.
    package func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) throws -> FeedNotifications? {
        guard let profileID = try profileID(feed) else { return nil }
        return try RelayListing.notifications(
            of: feed, kinds: kinds, mentions: { try mentionRows(profileID) },
            reactions: { try reactionRows(profileID, excludingVotes: false) }, replies: { try replyRows(profileID) },
            boosts: { try boostRows(profileID) })
    }

    /// Moods on `feed`'s posts, poll votes left out.
    package func reactions(to feed: String) throws -> [FeedReaction]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try reactionRows(profileID, excludingVotes: true).map {
            FeedReaction(post: $0.entry.url, emoji: $0.mood, parent: $0.parent)
        }
    }

    /// Direct replies without a mood to `feed`'s posts, poll votes left out.
    package func replies(to feed: String) throws -> [FeedReply]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try replyRows(profileID).map { FeedReply(post: $0.entry.url, parent: $0.parent) }
    }

    /// The followers of `feed` (feed URL ascending, byte order).
    package func followers(of feed: String) throws -> [String]? {
        guard let profileID = try profileID(feed) else { return nil }
        return try strings(
            """
            SELECT f.feed FROM follows w JOIN profiles f ON f.id = w.follower_id
            WHERE w.followed_id = ? ORDER BY \(byBytes("f.feed"))
            """,
            [profileID])
    }

    // MARK: - Lists

    /// The posts that mention the profile, newest first.
    private func mentionRows(_ profileID: Int) throws -> [RelayListEntry] {
        try session.rows(
            """
            SELECT \(postURL), p.created_at, p.post_id FROM mentions m JOIN posts p ON p.id = m.post_id
            JOIN profiles f ON f.id = p.profile_id WHERE m.profile_id = ? ORDER BY \(newestFirst)
            """,
            [profileID]
        ).map(RelayListEntry.init)
    }

    /// Posts with a mood replying to the profile's posts, newest first.
    private func reactionRows(_ profileID: Int, excludingVotes: Bool) throws -> [(
        entry: RelayListEntry, mood: String, parent: String
    )] {
        let voteFilter = excludingVotes ? "AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)" : ""
        return try session.rows(
            """
            SELECT \(postURL), p.created_at, p.post_id, p.mood, p.reply_to
            FROM \(postsPointingAt("reply_to"))
            WHERE t.profile_id = ? AND p.mood <> '' \(voteFilter)
            ORDER BY \(newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.string(at: 3), try $0.string(at: 4)) }
    }

    /// Replies without a mood (and not poll votes) to the profile's posts, newest first.
    private func replyRows(_ profileID: Int) throws -> [(entry: RelayListEntry, parent: String)] {
        try session.rows(
            """
            SELECT \(postURL), p.created_at, p.post_id, p.reply_to
            FROM \(postsPointingAt("reply_to"))
            WHERE t.profile_id = ? AND p.mood = ''
              AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
            ORDER BY \(newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.string(at: 3)) }
    }

    /// Posts including (boosting) the profile's posts, newest first.
    private func boostRows(_ profileID: Int) throws -> [(entry: RelayListEntry, boosted: String)] {
        try session.rows(
            """
            SELECT \(postURL), p.created_at, p.post_id, p.include
            FROM \(postsPointingAt("include"))
            WHERE t.profile_id = ?
            ORDER BY \(newestFirst)
            """,
            [profileID]
        ).map { (try RelayListEntry($0), try $0.string(at: 3)) }
    }

    /// The posts `p` (with their profiles `f`) whose `column` names a post `t` of the profile `tf`: the
    /// profile's posts, then `column`'s index by each one's derived URL.
    private func postsPointingAt(_ column: String) -> String {
        """
        posts t JOIN profiles tf ON tf.id = t.profile_id
        JOIN posts p ON p.\(column) = \(RelayPostURL.sql(post: "t", profile: "tf"))
        JOIN profiles f ON f.id = p.profile_id
        """
    }
}
