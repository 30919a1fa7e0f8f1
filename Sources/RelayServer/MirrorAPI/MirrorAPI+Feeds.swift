import Foundation
import HTTPCore
import RelayCore

/// The mirror API's answers about one feed (`mirror-api.md` §3.9–3.11): its profile (bare), its posts and
/// its notifications (in the envelope).
extension MirrorAPI {
    /// The page size of `notifications/` when the request names none (the engine asks for 50).
    static let notificationsPerPage = 50

    /// `GET /api/profile/?feed=`: the feed's profile, bare; a 404 problem for a feed the relay has not read.
    func profile(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try Self.requireFeed(parameters)
        guard let profile = try await readModel.profile(of: feed), !profile.isKnownOnlyByName else {
            throw MirrorProblem.notFound("Profile", "The relay has not read the feed \(feed).")
        }
        return Self.bare(MirrorJSON.profile(profile))
    }

    /// `GET /api/timeline/?feed=`: the feed's posts with text, newest first, paged like `posts/` (the same
    /// query, for one feed); an empty list for a feed the relay has not read.
    func timeline(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try Self.requireFeed(parameters)
        let (page, perPage) = try Self.paging(parameters)
        let result = try await readModel.posts(PostListQuery(feeds: [feed], page: page, perPage: perPage))
        return Self.envelope(
            result.posts.map(MirrorJSON.post), total: result.total, page: page, perPage: perPage,
            totalPages: result.totalPages(page: page, perPage: perPage))
    }

    /// `GET /api/notifications/?feed=[&type=]`: the mentions, reactions, replies and boosts of the feed's
    /// posts merged newest first, as the relay API's `/notifications/` lists them, each
    /// `{"type", "post"}` with the whole post; `type` keeps one kind. Paged (50 a page by default); an
    /// empty list for a feed the relay has not read.
    func notifications(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let feed = try Self.requireFeed(parameters)
        var kinds = Set(InteractionNotice.Kind.allCases)
        if let type = parameters.stripped("type")?.lowercased(), !type.isEmpty {
            guard let kind = InteractionNotice.Kind(rawValue: type) else {
                let names = InteractionNotice.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw MirrorProblem.invalid("type", "type must be one of \(names), not \"\(type)\".")
            }
            kinds = [kind]
        }
        let (page, perPage) = try Self.paging(parameters, defaultPerPage: Self.notificationsPerPage)
        let notices = try await readModel.notifications(of: feed, kinds: kinds)?.notices ?? []
        let shown = Self.slice(notices, page: page, perPage: perPage)
        let posts = try await postsByURL(shown.map(\.post))
        let items: [JSONValue] = shown.compactMap { notice in
            posts[notice.post].map {
                .object([("type", .string(notice.kind.rawValue)), ("post", MirrorJSON.post($0))])
            }
        }
        return Self.envelope(items, total: notices.count, page: page, perPage: perPage)
    }
}
