import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// `GET /polls/` in its three modes and `GET /polls/votes/` (`relay-api.md` §2.13, §2.14). `/polls/` always
/// carries its `meta` and `_links` (deliberate difference 4).
extension RelayQueries {
    /// `GET /polls/[?voter=|?feed=]`.
    func polls(_ parameters: RelayParameters) throws -> RelayJSONReply {
        if let voter = parameters.stripped("voter"), !voter.isEmpty {
            return try pollsVotedBy(voter)
        }
        if let feed = parameters.stripped("feed"), !feed.isEmpty {
            return try pollsOf(feed)
        }
        let list = try urls(
            db.query(sql: "SELECT p.url FROM posts p WHERE p.poll_end IS NOT NULL ORDER BY \(Self.newestFirst)"))
        return RelayEnvelope.success(
            RelayEnvelope.strings(list), meta: [("total", .int(list.count))],
            links: [
                ("self", RelayEnvelope.link("/polls/")),
                ("votes", RelayEnvelope.link("/polls/votes/?post={post_url}", templated: true)),
            ])
    }

    /// `?feed=`: the feed's polls with their options.
    private func pollsOf(_ feed: String) throws -> RelayJSONReply {
        guard let profileID = try profileID(feed) else {
            return RelayEnvelope.error("Profile not found for the given feed URL", status: .notFound)
        }
        let rows = try db.query(
            sql: """
                SELECT p.id, p.url, p.post_id, p.content, p.poll_end, p.created_at FROM posts p
                WHERE p.profile_id = ? AND p.poll_end IS NOT NULL ORDER BY \(Self.newestFirst)
                """,
            arguments: [profileID])
        let data: [JSONValue] = try rows.map { row in
            let pollEnd = Date(timeIntervalSince1970: try row.value(at: 4))
            return .object([
                ("id", .string(try row.value(at: 1))), ("post_id", .string(try row.value(at: 2))),
                ("content", .string(try row.value(at: 3))), ("poll_end", .string(RelayTimeFormat.isoformat(pollEnd))),
                ("is_active", .bool(pollEnd > now)),
                ("options", RelayEnvelope.strings(try options(of: row.value(at: 0)))),
                ("created_at", .string(RelayTimeFormat.isoformat(Date(timeIntervalSince1970: try row.value(at: 5))))),
            ])
        }
        return RelayEnvelope.success(.array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))])
    }

    /// `?voter=`: the votes the feed cast, newest vote first.
    private func pollsVotedBy(_ voter: String) throws -> RelayJSONReply {
        guard let profileID = try profileID(voter) else {
            return RelayEnvelope.error("Voter profile not found for the given feed URL", status: .notFound)
        }
        let rows = try db.query(
            sql: """
                SELECT vp.url, pp.url, pf.nick, pp.content, v.option, v.created_at
                FROM posts vp JOIN poll_votes v ON v.vote_post_id = vp.id
                JOIN posts pp ON pp.id = v.poll_post_id JOIN profiles pf ON pf.id = pp.profile_id
                WHERE vp.profile_id = ? ORDER BY v.created_at DESC, vp.post_id DESC
                """,
            arguments: [profileID])
        let data: [JSONValue] = try rows.map { row in
            .object([
                ("vote_post_id", .string(try row.value(at: 0))), ("poll_id", .string(try row.value(at: 1))),
                ("poll_author", .string(try row.value(at: 2))), ("poll_content", .string(try row.value(at: 3))),
                ("selected_option", .string(try row.value(at: 4))),
                ("voted_at", .string(RelayTimeFormat.isoformat(Date(timeIntervalSince1970: try row.value(at: 5))))),
            ])
        }
        return RelayEnvelope.success(.array(data), meta: [("voter", .string(voter)), ("total", .int(data.count))])
    }

    /// `GET /polls/votes/?post=`: the votes per option, newest vote first; unknown options dropped.
    func pollVotes(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let poll: StoredPost
        switch try requirePost(parameters, notFound: "Poll not found") {
        case .failure(let error): return error.reply
        case .success(let found): poll = found
        }
        guard poll.pollEnd != nil else {
            return RelayEnvelope.error("Post is not a poll", status: .badRequest)
        }
        let votes = try db.query(
            sql: """
                SELECT vp.url, v.option FROM poll_votes v JOIN posts vp ON vp.id = v.vote_post_id
                WHERE v.poll_post_id = ? ORDER BY v.created_at DESC, vp.post_id DESC
                """,
            arguments: [poll.rowID])
        var byOption: [String: [String]] = [:]
        for row in votes { byOption[try row.value(at: 1), default: []].append(try row.value(at: 0)) }
        let options = try options(of: poll.rowID)
        let data: [JSONValue] = options.map { option in
            .object([("option", .string(option)), ("votes", RelayEnvelope.strings(byOption[option] ?? []))])
        }
        let total = options.reduce(0) { $0 + (byOption[$1]?.count ?? 0) }
        return RelayEnvelope.success(
            .array(data), meta: [("poll", .string(poll.url)), ("total_votes", .int(total))],
            links: [selfLink("/polls/votes/", "post", poll.url), ("polls", RelayEnvelope.link("/polls/"))])
    }

    /// The options of post `rowID`, in order.
    func options(of rowID: Int) throws -> [String] {
        try urls(db.query(sql: "SELECT text FROM poll_options WHERE post_id = ? ORDER BY position", arguments: [rowID]))
    }
}
