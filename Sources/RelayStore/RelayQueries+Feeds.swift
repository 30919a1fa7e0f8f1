import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// The endpoints keyed by a feed: `/feeds/`, `/mentions/`, `/notifications/`, `/reactions/`, `/replies-to/`,
/// `/profile/` (`relay-api.md` §2.2, §2.4–2.7, §2.15).
extension RelayQueries {
    /// Whether a feed URL is one of the reference's bridge virtual feeds (left out of listings and stats).
    static func isBridge(_ url: String) -> Bool {
        url.contains("/bridge/activitypub/") || url.contains("/bridge/rss/")
    }

    /// `GET /feeds/`: every crawl-list URL in insertion order, bridges left out.
    func feeds() throws -> RelayJSONReply {
        let urls = try urls(db.query(sql: "SELECT url FROM feeds ORDER BY id")).filter { !Self.isBridge($0) }
        let links: [(String, JSONValue)] = [
            ("self", RelayEnvelope.link("/feeds/")), ("add", RelayEnvelope.link("/feeds/", method: "POST")),
        ]
        return RelayEnvelope.success(RelayEnvelope.strings(urls), links: links)
    }

    /// `GET /mentions/?feed=`.
    func mentions(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let (feed, profileID): (String, Int)
        switch try requireProfile(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): (feed, profileID) = found
        }
        let list = try mentionRows(profileID).map(\.url)
        return RelayEnvelope.success(
            RelayEnvelope.strings(list), meta: [("feed", .string(feed)), ("total", .int(list.count))],
            links: [selfLink("/mentions/", "feed", feed)])
    }

    /// `GET /notifications/?feed=[&type=]`: the four lists merged, newest first, ties in type order.
    func notifications(_ parameters: RelayParameters) throws -> RelayJSONReply {
        guard let feed = parameters.stripped("feed"), !feed.isEmpty else {
            return RelayEnvelope.error("Feed URL parameter is required", status: .badRequest)
        }
        let type = parameters.stripped("type")?.lowercased() ?? ""
        let kinds = InteractionNotice.Kind.allCases
        guard type.isEmpty || kinds.contains(where: { $0.rawValue == type }) else {
            return RelayEnvelope.error(
                "Invalid type parameter. Must be one of: mention, reaction, reply, boost", status: .badRequest)
        }
        guard let profileID = try profileID(feed) else {
            return RelayEnvelope.error("Profile not found for the given feed URL", status: .notFound)
        }
        func wanted(_ kind: InteractionNotice.Kind) -> Bool { type.isEmpty || type == kind.rawValue }
        var items: [(entry: PostEntry, value: JSONValue)] = []
        var counts: [InteractionNotice.Kind: Int] = [:]
        if wanted(.mention) {
            let rows = try mentionRows(profileID)
            counts[.mention] = rows.count
            items += rows.map { ($0, .object([("type", .string("mention")), ("post", .string($0.url))])) }
        }
        if wanted(.reaction) {
            let rows = try reactionRows(profileID, excludingVotes: false)
            counts[.reaction] = rows.count
            items += rows.map { row in
                (
                    row.entry,
                    .object([
                        ("type", .string("reaction")), ("post", .string(row.entry.url)), ("emoji", .string(row.mood)),
                        ("parent", .string(row.parent)),
                    ])
                )
            }
        }
        if wanted(.reply) {
            let rows = try replyRows(profileID)
            counts[.reply] = rows.count
            items += rows.map { row in
                (
                    row.entry,
                    .object([
                        ("type", .string("reply")), ("post", .string(row.entry.url)), ("parent", .string(row.parent)),
                    ])
                )
            }
        }
        if wanted(.boost) {
            let rows = try boostRows(profileID)
            counts[.boost] = rows.count
            items += rows.map { row in
                (
                    row.entry,
                    .object([
                        ("type", .string("boost")), ("post", .string(row.entry.url)), ("boosted", .string(row.boosted)),
                    ])
                )
            }
        }
        let sorted = items.enumerated().sorted { lhs, rhs in
            if lhs.element.entry.isOrdered(before: rhs.element.entry) { return true }
            if rhs.element.entry.isOrdered(before: lhs.element.entry) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element.value)
        let byType: [(String, JSONValue)] = [
            ("mentions", .int(counts[.mention] ?? 0)), ("reactions", .int(counts[.reaction] ?? 0)),
            ("replies", .int(counts[.reply] ?? 0)), ("boosts", .int(counts[.boost] ?? 0)),
        ]
        let encoded = RelayPercentEncoding.encode(feed)
        return RelayEnvelope.success(
            .array(sorted),
            meta: [("feed", .string(feed)), ("total", .int(sorted.count)), ("by_type", .object(byType))],
            links: [
                ("self", RelayEnvelope.link("/notifications/?feed=\(encoded)")),
                ("mentions", RelayEnvelope.link("/mentions/?feed=\(encoded)")),
                ("reactions", RelayEnvelope.link("/reactions/?feed=\(encoded)")),
                ("replies-to", RelayEnvelope.link("/replies-to/?feed=\(encoded)")),
            ])
    }

    /// `GET /reactions/?feed=`: moods on the feed's posts, poll votes left out.
    func reactions(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let (feed, profileID): (String, Int)
        switch try requireProfile(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): (feed, profileID) = found
        }
        let rows = try reactionRows(profileID, excludingVotes: true)
        let data: [JSONValue] = rows.map { row in
            .object([("post", .string(row.entry.url)), ("emoji", .string(row.mood)), ("parent", .string(row.parent))])
        }
        return RelayEnvelope.success(
            .array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))],
            links: [selfLink("/reactions/", "feed", feed)])
    }

    /// `GET /replies-to/?feed=`: direct replies without a mood to the feed's posts, poll votes left out.
    func repliesTo(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let (feed, profileID): (String, Int)
        switch try requireProfile(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): (feed, profileID) = found
        }
        let data: [JSONValue] = try replyRows(profileID).map { row in
            .object([("post", .string(row.entry.url)), ("parent", .string(row.parent))])
        }
        return RelayEnvelope.success(
            .array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))],
            links: [selfLink("/replies-to/", "feed", feed)])
    }

    /// `GET /profile/?feed=`: followers (feed URL ascending).
    func profile(_ parameters: RelayParameters) throws -> RelayJSONReply {
        let (feed, profileID): (String, Int)
        switch try requireProfile(parameters) {
        case .failure(let error): return error.reply
        case .success(let found): (feed, profileID) = found
        }
        let followers = try urls(
            db.query(
                sql: """
                    SELECT f.feed FROM follows w JOIN profiles f ON f.id = w.follower_id
                    WHERE w.followed_id = ? ORDER BY f.feed
                    """,
                arguments: [profileID]))
        return RelayEnvelope.success(
            .object([("feed", .string(feed)), ("followers", RelayEnvelope.strings(followers))]),
            meta: [("feed", .string(feed)), ("total_followers", .int(followers.count))],
            links: [selfLink("/profile/", "feed", feed)])
    }

    // MARK: - Lists

    /// The posts that mention the profile, newest first.
    func mentionRows(_ profileID: Int) throws -> [PostEntry] {
        try db.query(
            sql: """
                SELECT p.url, p.created_at, p.post_id FROM mentions m JOIN posts p ON p.id = m.post_id
                WHERE m.profile_id = ? ORDER BY \(Self.newestFirst)
                """,
            arguments: [profileID]
        ).map(PostEntry.init)
    }

    /// Posts with a mood replying to the profile's posts, newest first.
    func reactionRows(_ profileID: Int, excludingVotes: Bool) throws -> [(
        entry: PostEntry, mood: String, parent: String
    )] {
        let voteFilter = excludingVotes ? "AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)" : ""
        return try db.query(
            sql: """
                SELECT p.url, p.created_at, p.post_id, p.mood, p.reply_to
                FROM posts t JOIN posts p ON p.reply_to = t.url
                WHERE t.profile_id = ? AND p.mood <> '' \(voteFilter)
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [profileID]
        ).map { (try PostEntry($0), try $0.value(at: 3), try $0.value(at: 4)) }
    }

    /// Replies without a mood (and not poll votes) to the profile's posts, newest first.
    func replyRows(_ profileID: Int) throws -> [(entry: PostEntry, parent: String)] {
        try db.query(
            sql: """
                SELECT p.url, p.created_at, p.post_id, p.reply_to
                FROM posts t JOIN posts p ON p.reply_to = t.url
                WHERE t.profile_id = ? AND p.mood = ''
                  AND NOT EXISTS (SELECT 1 FROM poll_votes v WHERE v.vote_post_id = p.id)
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [profileID]
        ).map { (try PostEntry($0), try $0.value(at: 3)) }
    }

    /// Posts including (boosting) the profile's posts, newest first.
    func boostRows(_ profileID: Int) throws -> [(entry: PostEntry, boosted: String)] {
        try db.query(
            sql: """
                SELECT p.url, p.created_at, p.post_id, p.include
                FROM posts t JOIN posts p ON p.include = t.url
                WHERE t.profile_id = ?
                ORDER BY \(Self.newestFirst)
                """,
            arguments: [profileID]
        ).map { (try PostEntry($0), try $0.value(at: 3)) }
    }
}
