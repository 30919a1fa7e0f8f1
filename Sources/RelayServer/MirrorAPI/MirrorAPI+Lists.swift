import Foundation
import HTTPCore
import RelayCore

/// The mirror API's other lists (`mirror-api.md` §3.2–3.4): a search, the groups, and one group's posts,
/// from the relay API's own questions (`/search/`, `/groups/`) with the posts behind their URLs.
extension MirrorAPI {
    /// The largest page of `search/`, as the relay API's `/search/` (the engine asks for 40).
    static let maximumSearchPerPage = 50

    /// `GET /api/search/?q=|tag=`: the posts whose text or tags contain `q` (any case), or whose `TAGS` hold
    /// `tag` as a whole word, newest first, paged; `q` wins over `tag`. Past the last page, an empty list.
    func search(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let q = parameters.value("q").flatMap { $0.isEmpty ? nil : $0 }
        let tag = parameters.value("tag").flatMap { $0.isEmpty ? nil : $0 }
        let term: SearchTerm
        if let q {
            guard !RelaySearchText.isTooLong(q) else {
                throw MirrorProblem.invalid(
                    "q", "q is too long: at most \(RelaySearchText.maximumQueryLength) characters.")
            }
            term = .text(q)
        } else if let tag {
            term = .tag(tag)
        } else {
            throw MirrorProblem.invalid("search", "Either q (a text) or tag is required.")
        }
        let (page, perPage) = try Self.paging(parameters, maximum: Self.maximumSearchPerPage)
        let results: SearchResults
        do {
            results = try await readModel.search(term, page: page, perPage: perPage)
        } catch RelayReadError.searchOverBudget {
            throw MirrorProblem(
                title: "Search stopped",
                detail: "The search needed more than 1 second or 48 MB; use a longer or more specific query.",
                status: .serviceUnavailable)
        }
        let posts = try await postsByURL(results.posts)
        let items = results.posts.compactMap { posts[$0].map(MirrorJSON.post) }
        // An estimated total cannot say where the pages end; whether a next page exists can.
        let totalPages = results.totalIsEstimated ? (results.hasMore ? page + 1 : page) : nil
        return Self.envelope(items, total: results.total, page: page, perPage: perPage, totalPages: totalPages)
    }

    /// `GET /api/groups/`: the groups this relay enables, in configuration order, each
    /// `{"name", "slug", "relay"?, "count"}` with `count` its posts.
    func groups(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        var items: [JSONValue] = []
        let groups = await readModel.enabledGroups()
        for group in groups {
            let count = try await readModel.messages(ofGroup: group.slug).map { Self.urls(of: $0.threads).count } ?? 0
            var members: [(String, JSONValue)] = [("name", .string(group.name)), ("slug", .string(group.slug))]
            if let relayURL { members.append(("relay", .string(relayURL))) }
            members.append(("count", .int(count)))
            items.append(.object(members))
        }
        return Self.envelope(items, total: items.count, page: 1, perPage: max(1, items.count))
    }

    /// `GET /api/groups/<slug>/`: the group's posts, replies included, newest first, paged; a 404 problem
    /// for a slug no enabled group has.
    func groupPosts(slug: String, _ parameters: RelayParameters) async throws -> RelayJSONReply {
        guard let messages = try await readModel.messages(ofGroup: slug) else {
            throw MirrorProblem.notFound("Group", "This relay has no group \"\(slug)\".")
        }
        let (page, perPage) = try Self.paging(parameters)
        let posts = try await readModel.posts(at: Self.urls(of: messages.threads)).sorted {
            RelayListing.isNewerFirst(
                ($0.createdAt.timeIntervalSince1970, $0.id, $0.url),
                before: ($1.createdAt.timeIntervalSince1970, $1.id, $1.url))
        }
        let shown = Self.slice(posts, page: page, perPage: perPage)
        return Self.envelope(shown.map(MirrorJSON.post), total: posts.count, page: page, perPage: perPage)
    }

    /// Every post of `threads`, at any depth.
    static func urls(of threads: [GroupThread]) -> [String] {
        threads.flatMap { [$0.post] + urls(of: $0.replies) }
    }
}
