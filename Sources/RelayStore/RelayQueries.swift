import Foundation
import HTTPServer
import RelayCore
import SQLiteStore

/// The read side: answers each JSON endpoint of `relay-api.md` §2 from one read connection.
///
/// Split by endpoint family into `RelayQueries+*.swift` files. Lists the reference orders by post-ID string
/// are ordered by the parsed instant, newest first, ties by ID string descending (deliberate difference 2).
struct RelayQueries {
    /// The read connection.
    let db: Connection
    /// The enabled groups.
    let groups: [ConfiguredGroup]
    /// The request time.
    let now: Date

    /// The ordering of "newest first" lists.
    static let newestFirst = "p.created_at DESC, p.post_id DESC, p.url DESC"

    /// Whether `path` is one of the JSON endpoints answered here.
    static func handles(path: String) -> Bool {
        switch path {
        case "/feeds/", "/mentions/", "/notifications/", "/reactions/", "/replies-to/", "/boosts/", "/interactions/",
            "/replies/", "/search/", "/groups/", "/polls/", "/polls/votes/", "/profile/", "/stats/":
            return true
        default:
            return groupSlug(in: path) != nil
        }
    }

    /// The slug of a `/groups/{slug}/` path.
    static func groupSlug(in path: String) -> String? {
        guard path.hasPrefix("/groups/"), path.hasSuffix("/"), path.count > "/groups//".count else { return nil }
        let slug = path.dropFirst("/groups/".count).dropLast()
        return slug.contains("/") ? nil : String(slug)
    }

    /// Answers `path` (one of ``handles(path:)``).
    func reply(path: String, query: [HTTPQueryItem]) throws -> RelayJSONReply {
        let parameters = RelayParameters(query)
        switch path {
        case "/feeds/": return try feeds()
        case "/mentions/": return try mentions(parameters)
        case "/notifications/": return try notifications(parameters)
        case "/reactions/": return try reactions(parameters)
        case "/replies-to/": return try repliesTo(parameters)
        case "/boosts/": return try boosts(parameters)
        case "/interactions/": return try interactions(parameters)
        case "/replies/": return try replies(parameters)
        case "/search/": return try search(parameters)
        case "/groups/": return groupList()
        case "/polls/": return try polls(parameters)
        case "/polls/votes/": return try pollVotes(parameters)
        case "/profile/": return try profile(parameters)
        case "/stats/": return try stats()
        default:
            guard let slug = Self.groupSlug(in: path) else {
                return RelayEnvelope.error("Not found", status: .notFound)
            }
            return try groupMessages(slug: slug)
        }
    }

    // MARK: - Shared lookups

    /// The stripped `feed` parameter and its profile row id, or the error reply (§2.4).
    func requireProfile(
        _ parameters: RelayParameters, name: String = "feed",
        notFound: String = "Profile not found for the given feed URL"
    ) throws -> Result<(feed: String, profileID: Int), RelayError> {
        guard let feed = parameters.stripped(name), !feed.isEmpty else {
            return .failure(RelayError(RelayEnvelope.error("Feed URL parameter is required", status: .badRequest)))
        }
        guard let id = try profileID(feed) else {
            return .failure(RelayError(RelayEnvelope.error(notFound, status: .notFound)))
        }
        return .success((feed, id))
    }

    /// The profile row id of `feed`.
    func profileID(_ feed: String) throws -> Int? {
        try db.queryOne(sql: "SELECT id FROM profiles WHERE feed = ?", arguments: [feed])?.value(at: 0)
    }

    /// The `post` parameter (not stripped), split at the first `#`, and its row, or the error reply (§2.8).
    func requirePost(_ parameters: RelayParameters, notFound: String = "Post not found") throws -> Result<
        StoredPost, RelayError
    > {
        guard let post = parameters.value("post"), !post.isEmpty else {
            return .failure(RelayError(RelayEnvelope.error("'post' parameter is required", status: .badRequest)))
        }
        guard let hash = post.firstIndex(of: "#") else {
            return .failure(
                RelayError(
                    RelayEnvelope.error("Invalid post URL format. Expected: feed_url#post_id", status: .badRequest)))
        }
        let feed = String(post[..<hash])
        let postID = String(post[post.index(after: hash)...])
        guard let stored = try storedPost(feed: feed, postID: postID) else {
            return .failure(RelayError(RelayEnvelope.error(notFound, status: .notFound)))
        }
        return .success(stored)
    }

    /// The stored post `postID` of `feed`.
    func storedPost(feed: String, postID: String) throws -> StoredPost? {
        guard
            let row = try db.queryOne(
                sql: """
                    SELECT p.id, p.url, p.reply_to, p.poll_end, f.feed, p.post_id, p.content, p.created_at, f.nick
                    FROM posts p JOIN profiles f ON f.id = p.profile_id
                    WHERE f.feed = ? AND p.post_id = ?
                    """,
                arguments: [feed, postID])
        else { return nil }
        return try StoredPost(row)
    }

    /// The URLs of `rows`' first column.
    func urls(_ rows: [Row]) throws -> [String] {
        try rows.map { try $0.value(at: 0, as: String.self) }
    }

    /// `_links.self` for an endpoint taking `name=value`.
    func selfLink(_ path: String, _ name: String, _ value: String) -> (String, JSONValue) {
        ("self", RelayEnvelope.link("\(path)?\(name)=\(RelayPercentEncoding.encode(value))"))
    }
}

/// An error reply carried through `Result`.
struct RelayError: Error {
    /// The reply to send.
    var reply: RelayJSONReply

    /// Wraps `reply`.
    init(_ reply: RelayJSONReply) { self.reply = reply }
}
