package import Foundation
package import HTTPCore
package import RelayCore

/// The mirror API the official Org Social engine reads (`mirror-api.md`), served under `/api/`: asks the
/// same read model as the relay API and writes lists in the envelope `{"data", "meta"}`, single objects
/// bare and errors as problem objects `{"title", "detail", "status"}`.
///
/// ```swift
/// let api = MirrorAPI(readModel: store)
/// let reply = await api.reply(path: "/api/posts/", query: [HTTPQueryItem(name: "scope", value: "all")], now: Date())
/// ```
package struct MirrorAPI: Sendable {
    /// The path prefix the mirror API is served under by default.
    package static let defaultPrefix = "/api/"
    /// The path prefix it is served under: `/`, segments, `/` (``checkedPrefix(_:)``).
    package let prefix: String
    /// The page size when the request names none.
    static let defaultPerPage = 20
    /// The largest page size; larger requests are clamped to it, as the official engine clamps its own.
    static let maximumPerPage = 100

    /// The storage the rows come from.
    let readModel: any RelayReadModel
    /// This relay's public URL (`https://<site domain>`), the `relay` of its groups; `nil` leaves it out.
    let relayURL: String?

    /// Makes the endpoints over a read model.
    ///
    /// - Parameters:
    ///   - readModel: The storage the rows come from.
    ///   - relayURL: This relay's public URL, the `relay` of its groups in `groups/`.
    ///   - prefix: The path prefix, as ``checkedPrefix(_:)`` returns it.
    package init(readModel: any RelayReadModel, relayURL: String? = nil, prefix: String = Self.defaultPrefix) {
        self.readModel = readModel
        self.prefix = prefix
        self.relayURL = relayURL
    }

    /// Whether `path` is under the mirror API's prefix (or is the prefix without its slash).
    package func serves(_ path: String) -> Bool {
        path.hasPrefix(prefix) || path == String(prefix.dropLast())
    }

    /// Whether `path` is `webhook/refresh/`, the one `POST` of the mirror API.
    package func isRefresh(_ path: String) -> Bool {
        path.dropFirst(prefix.count).split(separator: "/") == ["webhook", "refresh"]
    }

    /// The metrics label of a request under the prefix: the endpoint's pattern (`/api/groups/{slug}/`), or
    /// `not_found` for a path the mirror API does not serve, so that the label's values are few.
    package func metricLabel(of path: String) -> String {
        let name = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if name.count == 2, name[0] == "groups" { return prefix + "groups/{slug}/" }
        if name == ["webhook", "refresh"] || name == ["polls", "votes"] {
            return prefix + name.joined(separator: "/") + "/"
        }
        guard name.count == 1, Self.listNames.contains(name[0]) else { return "not_found" }
        return prefix + name[0] + "/"
    }

    /// The endpoints of one path segment.
    private static let listNames: Set = [
        "posts", "feeds", "thread", "interactions", "post", "profile", "timeline", "notifications", "search", "groups",
    ]

    /// Checks a prefix asked for (`relay serve --mirror-prefix`): it must be a path of one or more segments
    /// of unreserved characters whose first segment is not one of the relay API's (`/feeds/`, `/groups/`,
    /// `/bridge/`, …), which it would hide.
    /// - Parameter text: e.g. `/api/` or `/mirror/v1` (the slashes around it are added).
    /// - Returns: the prefix with a leading and a trailing slash.
    /// - Throws: ``MirrorPrefixError`` saying what is wrong.
    package static func checkedPrefix(_ text: String) throws(MirrorPrefixError) -> String {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst(
            text.hasPrefix("/") ? 1 : 0)
        let trimmed = segments.last == "" ? segments.dropLast() : segments
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        guard let first = trimmed.first, !first.isEmpty,
            trimmed.allSatisfy({
                !$0.isEmpty && $0 != "." && $0 != ".." && $0.unicodeScalars.allSatisfy(allowed.contains)
            })
        else { throw .malformed(text) }
        if RelayEndpoint(path: "/\(first)/") != nil || RelayEndpoint(path: "/\(first)/x/") != nil
            || ["sse", "rss.xml", "bridge"].contains(first)
        {
            throw .hidesRelayAPI(text, segment: String(first))
        }
        return "/" + trimmed.joined(separator: "/") + "/"
    }

    /// The answer to `POST webhook/refresh/` once the feed went through registration: `202 {"feed"}` for a
    /// known or added feed, else a problem.
    static func refreshReply(_ outcome: FeedRegistrationOutcome) -> RelayJSONReply {
        switch outcome {
        case .known(let feed), .added(let feed):
            return RelayJSONReply(status: .accepted, body: .object([("feed", .string(feed))]))
        case .bridge:
            return MirrorProblem(
                title: "Invalid feed", detail: "A bridge feed cannot be refreshed.", status: .badRequest
            ).reply
        case .invalid(let reason):
            return MirrorProblem(
                title: "Invalid feed", detail: "Invalid Org Social feed: \(reason)", status: .badRequest
            ).reply
        case .storageFailed:
            return MirrorProblem(
                title: "Server error", detail: "The crawl list could not be read or written.",
                status: .internalServerError
            ).reply
        }
    }

    /// Answers `method path?query`.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - path: The decoded path, starting with `/api/`.
    ///   - query: The decoded query items, in request order.
    ///   - now: The current time (`sinceDays`).
    /// - Returns: The status and the JSON body.
    package func reply(method: HTTPMethod, path: String, query: [HTTPQueryItem], now: Date) async -> RelayJSONReply {
        let name = path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true)
        guard method == .get || method == .head else {
            return MirrorProblem(
                title: "Method not allowed", detail: "The mirror API answers GET here.", status: .methodNotAllowed
            ).reply
        }
        do {
            switch name.map(String.init) {
            case ["posts"]: return try await posts(RelayParameters(query), now: now)
            case ["feeds"]: return try await feeds(RelayParameters(query))
            case ["thread"]: return try await thread(RelayParameters(query))
            case ["interactions"]: return try await interactions(RelayParameters(query))
            case ["post"]: return try await post(RelayParameters(query))
            case ["polls", "votes"]: return try await pollVotes(RelayParameters(query))
            case ["profile"]: return try await profile(RelayParameters(query))
            case ["timeline"]: return try await timeline(RelayParameters(query))
            case ["notifications"]: return try await notifications(RelayParameters(query))
            case ["search"]: return try await search(RelayParameters(query))
            case ["groups"]: return try await groups(RelayParameters(query))
            case let parts where parts.count == 2 && parts[0] == "groups":
                return try await groupPosts(slug: parts[1], RelayParameters(query))
            default:
                throw MirrorProblem(
                    title: "Not found", detail: "This relay does not serve \(path) of the mirror API.",
                    status: .notFound)
            }
        } catch let problem as MirrorProblem {
            return problem.reply
        } catch {
            return MirrorProblem(title: "Server error", detail: "\(error)", status: .internalServerError).reply
        }
    }

    /// `GET /api/posts/`: every post (`scope=all`) or the posts of the repeated `following=` feeds, in the
    /// repeated `lang`s, from the last `sinceDays` days, newest first, paged.
    func posts(_ parameters: RelayParameters, now: Date) async throws -> RelayJSONReply {
        let scope = parameters.stripped("scope") ?? ""
        let following = parameters.items.filter { $0.name == "following" }.map(\.value).filter { !$0.isEmpty }
        let feeds: [String]?
        switch scope {
        case "all" where following.isEmpty: feeds = nil
        case "", "following", "all": feeds = following
        default:
            throw MirrorProblem(
                title: "Invalid scope", detail: "scope must be \"all\" or \"following\", not \"\(scope)\".",
                status: .badRequest)
        }
        let languages = parameters.items.filter { $0.name == "lang" }.map(\.value).filter { !$0.isEmpty }
        let since = try Self.positiveInteger("sinceDays", parameters).map {
            now.addingTimeInterval(-Double($0) * 86_400)
        }
        let (page, perPage) = try Self.paging(parameters)
        let includesInteractions = try Self.flag("includeInteractions", parameters)
        let query = PostListQuery(
            feeds: feeds, languages: languages, since: since, page: page, perPage: perPage,
            includesInteractions: includesInteractions)
        let result = try await readModel.posts(query)
        return Self.envelope(
            result.posts.map(MirrorJSON.post), total: result.total, page: page, perPage: perPage,
            totalPages: result.totalPages(page: page, perPage: perPage))
    }

    /// `GET /api/feeds/`: the crawl list in insertion order (bridges left out), paged, each feed as its
    /// profile (as `profile/` gives it), or only its `url` while the relay has not read it.
    func feeds(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let (page, perPage) = try Self.paging(parameters)
        let feeds = try await readModel.feeds()
        var items: [JSONValue] = []
        for feed in Self.slice(feeds, page: page, perPage: perPage) {
            let profile = try await readModel.profile(of: feed)
            items.append(profile.map(MirrorJSON.profile) ?? .object([("url", .string(feed))]))
        }
        return Self.envelope(items, total: feeds.count, page: page, perPage: perPage)
    }

    /// The `page` (from 1) and `perPage` (at most `maximum`) asked for, `defaultPerPage` when absent.
    static func paging(
        _ parameters: RelayParameters, defaultPerPage: Int = defaultPerPage, maximum: Int = maximumPerPage
    )
        throws -> (page: Int, perPage: Int)
    {
        let page = try positiveInteger("page", parameters) ?? 1
        return (page, min(maximum, try positiveInteger("perPage", parameters) ?? defaultPerPage))
    }

    /// The items of page `page` of `items`, `perPage` a page; none past the end.
    static func slice<Item>(_ items: [Item], page: Int, perPage: Int) -> [Item] {
        let start = min(items.count, (page - 1) * perPage)
        return Array(items[start..<min(items.count, start + perPage)])
    }

    /// The post a request names in `post` (`<feed>#<id>`, split at its first `#`).
    ///
    /// - Throws: A 400 ``MirrorProblem`` when `post` is missing or has no `#`.
    static func requirePost(_ parameters: RelayParameters) throws -> PostKey {
        guard let value = parameters.value("post"), !value.isEmpty else {
            throw MirrorProblem.invalid("post", "post is required: the post's URL, \"<feed-url>#<timestamp>\".")
        }
        guard let key = PostKey(url: value) else {
            throw MirrorProblem.invalid("post", "post must be \"<feed-url>#<timestamp>\", not \"\(value)\".")
        }
        return key
    }

    /// The feed a request names in `feed`, trimmed.
    ///
    /// - Throws: A 400 ``MirrorProblem`` when `feed` is missing or empty.
    static func requireFeed(_ parameters: RelayParameters) throws -> String {
        guard let feed = parameters.stripped("feed"), !feed.isEmpty else {
            throw MirrorProblem.invalid("feed", "feed is required: the URL of a social.org file.")
        }
        return feed
    }

    /// A single object, written bare (not in the envelope) as the engine reads `thread/`, `post/`, ….
    static func bare(_ object: JSONValue) -> RelayJSONReply {
        RelayJSONReply(body: object)
    }

    /// The value of `name` as a flag: `true`/`1` or `false`/`0` (any case), `false` when absent or empty.
    static func flag(_ name: String, _ parameters: RelayParameters) throws -> Bool {
        switch parameters.stripped(name)?.lowercased() {
        case nil, "", "false", "0": return false
        case "true", "1": return true
        case let text?:
            throw MirrorProblem.invalid(name, "\(name) must be true or false, not \"\(text)\".")
        }
    }

    /// The value of `name` as an integer of at least 1, `nil` when absent or empty.
    static func positiveInteger(_ name: String, _ parameters: RelayParameters) throws -> Int? {
        guard let text = parameters.stripped(name), !text.isEmpty else { return nil }
        guard let value = Int(text), value >= 1 else {
            throw MirrorProblem(
                title: "Invalid \(name)", detail: "\(name) must be a whole number of at least 1, not \"\(text)\".",
                status: .badRequest)
        }
        return value
    }

    /// A list page in the envelope `{"data": [...], "meta": {"total", "page", "perPage", "totalPages"}}`.
    /// `totalPages` is counted from `total` unless given.
    static func envelope(_ items: [JSONValue], total: Int, page: Int, perPage: Int, totalPages: Int? = nil)
        -> RelayJSONReply
    {
        let totalPages = totalPages ?? (total + perPage - 1) / perPage
        let meta: JSONValue = .object([
            ("total", .int(total)), ("page", .int(page)), ("perPage", .int(perPage)), ("totalPages", .int(totalPages)),
        ])
        return RelayJSONReply(body: .object([("data", .array(items)), ("meta", meta)]))
    }
}

/// A mirror API prefix that cannot be used.
package enum MirrorPrefixError: Error, Hashable, CustomStringConvertible {
    /// Not a path of segments of letters, digits, `-`, `.`, `_`, `~`.
    case malformed(String)
    /// Its first segment is one of the relay API's, whose endpoints it would hide.
    case hidesRelayAPI(String, segment: String)

    package var description: String {
        switch self {
        case .malformed(let text):
            "'\(text)' is not a path prefix: give segments of letters, digits, '-', '.', '_' or '~' between slashes, "
                + "e.g. /api/ or /mirror/v1/."
        case .hidesRelayAPI(let text, let segment):
            "'\(text)' would hide the relay API's /\(segment)/ endpoints; choose another first segment, e.g. /api/."
        }
    }
}
