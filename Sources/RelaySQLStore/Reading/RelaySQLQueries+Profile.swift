import Foundation
package import RelayCore

extension RelaySQLQueries {
    /// The header fields of `feed` as last indexed, its links, contacts and follows, and its counts; `nil`
    /// without a profile.
    package func profile(of feed: String) throws -> FeedProfile? {
        guard
            let row = try session.firstRow(
                """
                SELECT id, title, nick, description, avatar, location, birthday, languages, pinned
                FROM profiles WHERE feed = ?
                """,
                [feed])
        else { return nil }
        let id = try row.int(at: 0)
        var profile = FeedProfile(
            feed: feed, title: try row.string(at: 1), nick: try row.string(at: 2), description: try row.string(at: 3),
            avatar: try row.string(at: 4), location: try row.string(at: 5), birthday: try row.text(at: 6),
            languages: try row.string(at: 7).split(whereSeparator: \.isWhitespace).map(String.init),
            pinned: try row.string(at: 8))
        profile.links = try strings("SELECT url FROM links WHERE profile_id = ? ORDER BY \(byBytes("url"))", [id])
        profile.contacts = try session.rows(
            "SELECT type, value FROM contacts WHERE profile_id = ? ORDER BY \(byBytes("type")), \(byBytes("value"))",
            [id]
        ).map { try $0.string(at: 0) + ":" + $0.string(at: 1) }
        profile.follows = try session.rows(
            """
            SELECT f.feed, w.nickname FROM follows w JOIN profiles f ON f.id = w.followed_id
            WHERE w.follower_id = ? ORDER BY w.created_at, \(byBytes("f.feed"))
            """,
            [id]
        ).map { FollowedFeed(feed: try $0.string(at: 0), nickname: try $0.string(at: 1)) }
        profile.postCount = try count("SELECT count(*) FROM posts WHERE profile_id = ? AND content <> ''", [id])
        profile.followerCount = try count("SELECT count(*) FROM follows WHERE followed_id = ?", [id])
        return profile
    }
}
