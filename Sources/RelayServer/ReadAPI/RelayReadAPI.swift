package import Foundation
package import HTTPCore
package import RelayCore

/// The JSON read endpoints (`relay-api.md` §2.2, §2.4–2.15, §2.17): validates the query parameters, asks
/// the read model its typed questions and writes the rows as the reference's envelopes, with its key
/// order, errors and status codes.
///
/// Split by endpoint family into `RelayReadAPI+*.swift` files.
///
/// ```swift
/// let api = RelayReadAPI(readModel: store)
/// let reply = await api.reply(path: "/mentions/", query: [HTTPQueryItem(name: "feed", value: url)], now: Date())
/// ```
package struct RelayReadAPI: Sendable {
    /// The storage the rows come from.
    let readModel: any RelayReadModel

    /// Makes the endpoints over a read model.
    ///
    /// - Parameter readModel: The storage.
    package init(readModel: any RelayReadModel) {
        self.readModel = readModel
    }

    /// Answers `GET path?query` when `path` is `/feeds/` or one of ``RelayReadEndpoint``'s paths.
    ///
    /// - Parameters:
    ///   - path: The decoded path with its trailing slash, e.g. `/mentions/` or `/groups/emacs/`.
    ///   - query: The decoded query items, in request order.
    ///   - now: The current time (poll `is_active`, `generated_at`).
    /// - Returns: The reply, or `nil` when `path` is none of these endpoints.
    package func reply(path: String, query: [HTTPQueryItem], now: Date) async -> RelayJSONReply? {
        switch RelayEndpoint(path: path) {
        case .feeds: return await feedsReply()
        case .read(let endpoint): return await reply(to: endpoint, query: query, now: now)
        default: return nil
        }
    }

    /// `GET /feeds/`: every crawl-list URL in insertion order, bridges left out.
    func feedsReply() async -> RelayJSONReply {
        await answering {
            let links: [(String, JSONValue)] = [
                ("self", RelayJSONEnvelope.link("/feeds/")), ("add", RelayJSONEnvelope.link("/feeds/", method: "POST")),
            ]
            return RelayJSONEnvelope.success(RelayJSONEnvelope.strings(try await readModel.feeds()), links: links)
        }
    }

    /// Answers one read endpoint.
    func reply(to endpoint: RelayReadEndpoint, query: [HTTPQueryItem], now: Date) async -> RelayJSONReply {
        let parameters = RelayParameters(query)
        return await answering {
            switch endpoint {
            case .mentions: return try await mentions(parameters)
            case .notifications: return try await notifications(parameters)
            case .reactions: return try await reactions(parameters)
            case .repliesTo: return try await repliesTo(parameters)
            case .boosts: return try await boosts(parameters)
            case .interactions: return try await interactions(parameters)
            case .replies: return try await replies(parameters)
            case .search: return try await search(parameters)
            case .groups: return await groupList()
            case .groupMessages(let slug): return try await groupMessages(slug: slug)
            case .polls: return try await polls(parameters, now: now)
            case .pollVotes: return try await pollVotes(parameters)
            case .profile: return try await profile(parameters)
            case .stats: return try await stats(now: now)
            }
        }
    }

    /// Runs `body`; a parameter error gives its reply, a storage failure a 500 envelope with the reason.
    private func answering(_ body: () async throws -> RelayJSONReply) async -> RelayJSONReply {
        do {
            return try await body()
        } catch let error as RelayErrorReply {
            return error.reply
        } catch {
            return RelayJSONEnvelope.error(
                "Internal server error: the relay's database could not answer (\(error.localizedDescription))",
                status: .internalServerError)
        }
    }

    // MARK: - Shared parameters

    /// The stripped `feed` parameter (§2.4).
    ///
    /// - Throws: ``RelayErrorReply`` with the 400 reply when it is missing or blank.
    func requireFeed(_ parameters: RelayParameters) throws(RelayErrorReply) -> String {
        guard let feed = parameters.stripped("feed"), !feed.isEmpty else {
            throw RelayErrorReply(RelayJSONEnvelope.error("Feed URL parameter is required", status: .badRequest))
        }
        return feed
    }

    /// The `post` parameter (not stripped) split at the first `#` (§2.8).
    ///
    /// - Throws: ``RelayErrorReply`` with the 400 reply when it is missing, blank or has no `#`.
    func requirePost(_ parameters: RelayParameters) throws(RelayErrorReply) -> PostKey {
        guard let post = parameters.value("post"), !post.isEmpty else {
            throw RelayErrorReply(RelayJSONEnvelope.error("'post' parameter is required", status: .badRequest))
        }
        guard let key = PostKey(url: post) else {
            throw RelayErrorReply(
                RelayJSONEnvelope.error("Invalid post URL format. Expected: feed_url#post_id", status: .badRequest))
        }
        return key
    }

    /// The 404 reply `message`.
    func notFound(_ message: String) -> RelayJSONReply {
        RelayJSONEnvelope.error(message, status: .notFound)
    }

    /// `_links.self` for an endpoint taking `name=value`.
    func selfLink(_ path: String, _ name: String, _ value: String) -> (String, JSONValue) {
        ("self", RelayJSONEnvelope.link("\(path)?\(name)=\(RelayPercentEncoding.encode(value))"))
    }
}

/// A parameter error, thrown with the reply that answers it.
struct RelayErrorReply: Error {
    /// The reply to send.
    var reply: RelayJSONReply

    /// Wraps `reply`.
    init(_ reply: RelayJSONReply) { self.reply = reply }
}
