import Foundation
package import RelayCore

/// The polls, the votes a feed cast and the votes of a poll (relay API §2.13, §2.14).
extension RelaySQLQueries {
    /// Every poll, newest first.
    package func polls() throws -> [String] {
        try strings("SELECT \(postURL) FROM \(postsWithProfile) WHERE p.poll_end IS NOT NULL ORDER BY \(newestFirst)")
    }

    /// The polls of `feed` with their options.
    package func polls(of feed: String) throws -> [FeedPoll]? {
        guard let profileID = try profileID(feed) else { return nil }
        let rows = try session.rows(
            """
            SELECT p.id, \(postURL), p.post_id, p.content, p.poll_end, p.created_at FROM \(postsWithProfile)
            WHERE p.profile_id = ? AND p.poll_end IS NOT NULL ORDER BY \(newestFirst)
            """,
            [profileID])
        return try rows.map { row in
            FeedPoll(
                post: try row.string(at: 1), postID: try row.string(at: 2), content: try row.string(at: 3),
                pollEnd: Date(timeIntervalSince1970: try row.double(at: 4)), options: try options(of: row.int(at: 0)),
                createdAt: Date(timeIntervalSince1970: try row.double(at: 5)))
        }
    }

    /// The votes `voter` cast, newest vote first.
    package func votes(castBy voter: String) throws -> [CastVote]? {
        guard let profileID = try profileID(voter) else { return nil }
        let rows = try session.rows(
            """
            SELECT \(RelayPostURL.sql(post: "vp", profile: "vf")), \(RelayPostURL.sql(post: "pp", profile: "pf")), pf.nick,
                pp.content, v.option, v.created_at
            FROM posts vp JOIN profiles vf ON vf.id = vp.profile_id JOIN poll_votes v ON v.vote_post_id = vp.id
            JOIN posts pp ON pp.id = v.poll_post_id JOIN profiles pf ON pf.id = pp.profile_id
            WHERE vp.profile_id = ? ORDER BY v.created_at DESC, \(byBytes("vp.post_id")) DESC
            """,
            [profileID])
        return try rows.map { row in
            CastVote(
                votePost: try row.string(at: 0), poll: try row.string(at: 1), pollAuthor: try row.string(at: 2),
                pollContent: try row.string(at: 3), option: try row.string(at: 4),
                votedAt: Date(timeIntervalSince1970: try row.double(at: 5)))
        }
    }

    /// The votes of the post `key` per option, newest vote first; unknown options dropped.
    package func tally(of key: PostKey) throws -> PollTally? {
        guard let poll = try storedPost(key) else { return nil }
        guard poll.pollEnd != nil else { return PollTally(poll: poll.url, isPoll: false, options: []) }
        let votes = try session.rows(
            """
            SELECT \(RelayPostURL.sql(post: "vp", profile: "vf")), v.option FROM poll_votes v
            JOIN posts vp ON vp.id = v.vote_post_id JOIN profiles vf ON vf.id = vp.profile_id
            WHERE v.poll_post_id = ? ORDER BY v.created_at DESC, \(byBytes("vp.post_id")) DESC
            """,
            [poll.rowID])
        var byOption: [String: [String]] = [:]
        for row in votes { byOption[try row.string(at: 1), default: []].append(try row.string(at: 0)) }
        let options = try options(of: poll.rowID).map { OptionVotes(option: $0, votes: byOption[$0] ?? []) }
        return PollTally(poll: poll.url, isPoll: true, options: options)
    }

    /// The options of post `rowID`, in order.
    private func options(of rowID: Int) throws -> [String] {
        try strings("SELECT text FROM poll_options WHERE post_id = ? ORDER BY position", [rowID])
    }
}
