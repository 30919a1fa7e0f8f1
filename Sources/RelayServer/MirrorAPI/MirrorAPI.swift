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
    /// The path prefix the mirror API is served under.
    package static let prefix = "/api/"
    /// The page size when the request names none.
    static let defaultPerPage = 20
    /// The largest page size; larger requests are clamped to it, as the official engine clamps its own.
    static let maximumPerPage = 100

    /// The storage the rows come from.
    let readModel: any RelayReadModel

    /// Makes the endpoints over a read model.
    package init(readModel: any RelayReadModel) {
        self.readModel = readModel
    }

    /// Whether `path` is under the mirror API's prefix (or is the prefix without its slash).
    package static func serves(_ path: String) -> Bool {
        path.hasPrefix(prefix) || path == String(prefix.dropLast())
    }

    /// Whether `path` is `webhook/refresh/`, the one `POST` of the mirror API.
    package static func isRefresh(_ path: String) -> Bool {
        path.dropFirst(prefix.count).split(separator: "/") == ["webhook", "refresh"]
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
        let name = path.dropFirst(Self.prefix.count).split(separator: "/", omittingEmptySubsequences: true)
        guard method == .get || method == .head else {
            return MirrorProblem(
                title: "Method not allowed", detail: "The mirror API answers GET here.", status: .methodNotAllowed
            ).reply
        }
        do {
            switch name.map(String.init) {
            case ["posts"]: return try await posts(RelayParameters(query), now: now)
            case ["feeds"]: return try await feeds(RelayParameters(query))
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
        let page = try Self.positiveInteger("page", parameters) ?? 1
        let perPage = min(Self.maximumPerPage, try Self.positiveInteger("perPage", parameters) ?? Self.defaultPerPage)
        let query = PostListQuery(feeds: feeds, languages: languages, since: since, page: page, perPage: perPage)
        let result = try await readModel.posts(query)
        return Self.envelope(result.posts.map(MirrorJSON.post), total: result.total, page: page, perPage: perPage)
    }

    /// `GET /api/feeds/`: the crawl list in insertion order (bridges left out), paged, each feed as a
    /// profile with only its `url` (the list holds no more).
    func feeds(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let page = try Self.positiveInteger("page", parameters) ?? 1
        let perPage = min(Self.maximumPerPage, try Self.positiveInteger("perPage", parameters) ?? Self.defaultPerPage)
        let feeds = try await readModel.feeds()
        let start = min(feeds.count, (page - 1) * perPage)
        let items = feeds[start..<min(feeds.count, start + perPage)].map { JSONValue.object([("url", .string($0))]) }
        return Self.envelope(Array(items), total: feeds.count, page: page, perPage: perPage)
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
    static func envelope(_ items: [JSONValue], total: Int, page: Int, perPage: Int) -> RelayJSONReply {
        let totalPages = (total + perPage - 1) / perPage
        let meta: JSONValue = .object([
            ("total", .int(total)), ("page", .int(page)), ("perPage", .int(perPage)), ("totalPages", .int(totalPages)),
        ])
        return RelayJSONReply(body: .object([("data", .array(items)), ("meta", meta)]))
    }
}

/// An error of the mirror API, written as the problem object `{"title", "detail", "status"}` the official
/// engine shows the `detail` of.
struct MirrorProblem: Error, Sendable {
    /// A short summary.
    var title: String
    /// What went wrong with this request.
    var detail: String
    /// The status code.
    var status: HTTPStatus

    /// The reply.
    var reply: RelayJSONReply {
        RelayJSONReply(
            status: status,
            body: .object([("title", .string(title)), ("detail", .string(detail)), ("status", .int(status.code))]))
    }
}

/// The JSON of the mirror API's objects.
enum MirrorJSON {
    /// A post as the engine's `MirrorPost`: `uri`, `feedUrl`, `id`, `createdAt` (UTC, whole seconds),
    /// `type`, `author`, `content` (the Org text), `tags`, and the optional properties the post has.
    static func post(_ post: ListedPost) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("uri", .string(post.feed + "#" + post.id)), ("feedUrl", .string(post.feed)), ("id", .string(post.id)),
            ("createdAt", .string(date(post.createdAt))), ("type", .string(post.replyTo == nil ? "post" : "reply")),
            ("author", .object([("url", .string(post.feed)), ("nick", .string(post.nick))])),
            ("content", .string(post.content)), ("tags", .array(post.tags.map { .string($0) })),
        ]
        let optional: [(String, String?)] = [
            ("lang", post.lang), ("client", post.client), ("replyTo", post.replyTo), ("mood", post.mood),
            ("group", post.group), ("include", post.include), ("pollEnd", post.pollEnd.map(date)),
            ("pollOption", post.pollOption),
        ]
        for (key, value) in optional {
            if let value, !value.isEmpty { members.append((key, .string(value))) }
        }
        return .object(members)
    }

    /// `date` as `YYYY-MM-DDTHH:MM:SSZ` in UTC, without fractional seconds (which the engine rejects).
    static func date(_ date: Date) -> String {
        let parts = RelayTimeFormat.utcParts(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        let pad = RelayTimeFormat.pad
        return "\(pad(parts.year, 4))-\(pad(parts.month, 2))-\(pad(parts.day, 2))T"
            + "\(pad(parts.hour, 2)):\(pad(parts.minute, 2)):\(pad(parts.second, 2))Z"
    }
}
