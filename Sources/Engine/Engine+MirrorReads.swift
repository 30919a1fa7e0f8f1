import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial

/// The reads that are the mirror's answers turned into the protocol's shapes (engine-protocol.md
/// §9.5–9.8, §9.14, §9.16; mirror-api.md §3).
extension Engine {
    /// The own feed, when there is an account and it can be read.
    func ownFeedIfAny() async -> Feed? {
        guard await state.account.feed != nil else { return nil }
        return try? await store().read()
    }

    func search(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let query = try params.requiredString("query").trimmingCharacters(in: .whitespacesAndNewlines)
        let page = max(1, try params.int("page") ?? 1)
        let term: (String, String)
        if query.hasPrefix("#") {
            term = ("tag", String(query.dropFirst()))
        } else {
            term = ("q", query)
        }
        guard !term.1.isEmpty else { return .object([("posts", .array([])), ("hasMore", .bool(false))]) }
        let answer = try await mirror().get("search", [term, ("page", String(page)), ("perPage", "40")])
        let account = await state.account
        let ownFeed = await ownFeedIfAny()
        return Self.page(
            mirrorPosts(answer.data, account: account, ownFeed: ownFeed), hasMore: answer.hasMore,
            viewers: ViewerIndex(ownFeed))
    }

    func groupPosts(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let slug = try params.requiredString("slug")
        guard !slug.isEmpty else { throw .invalidParams("empty slug") }
        let page = max(1, try params.int("page") ?? 1)
        let encoded = slug.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? slug
        let answer = try await mirror().get("groups/\(encoded)", [("page", String(page)), ("perPage", "40")])
        let account = await state.account
        let ownFeed = await ownFeedIfAny()
        return Self.page(
            mirrorPosts(answer.data, account: account, ownFeed: ownFeed, groups: true), hasMore: answer.hasMore,
            viewers: ViewerIndex(ownFeed))
    }

    func thread(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let reference = try Self.postReference(params, "post")
        let account = await state.account
        let ownFeed = await ownFeedIfAny()
        let viewers = ViewerIndex(ownFeed)
        func shown(_ post: PostJSON) -> JSONValue {
            var post = post
            if let own = account.feed, post.authorFeed == own, let ownFeed,
                let local = ownFeed.post(withID: post.timestamp),
                let replaced = PostJSON.own(local, in: ownFeed, feedURL: own)
            {
                post = replaced
            }
            post.viewer = viewers.viewer(of: post.url)
            return post.json
        }
        let answer: MirrorReader.Answer
        do {
            answer = try await mirror().get("thread", [("post", reference.description)])
        } catch {
            guard let own = account.feed, FeedURL.same(own, reference.feedURL), let ownFeed,
                let local = ownFeed.post(withID: reference.postID),
                let focal = PostJSON.own(local, in: ownFeed, feedURL: own)
            else { throw error }
            return .object([
                ("parents", .array([])), ("focal", shown(focal)), ("moods", .array([])), ("replies", .array([])),
            ])
        }
        guard case .object(let members) = answer.data, let tree = ThreadNode(members["thread"] ?? members["root"])
        else { throw RPCError(.network, "The mirror response could not be parsed.") }
        var target = reference.description
        if case .string(let focus)? = members["focus"] { target = focus }
        let path = tree.path(to: target) ?? [tree]
        let focal = path[path.count - 1]
        func reply(_ node: ThreadNode) -> JSONValue? {
            guard visible(node.post, account: account, groups: true) else { return nil }
            return .object([
                ("post", shown(node.post)), ("moods", .array([])),
                ("children", .array(node.replies.compactMap(reply))),
            ])
        }
        return .object([
            ("parents", .array(path.dropLast().map { shown($0.post) })), ("focal", shown(focal.post)),
            ("moods", .array([])), ("replies", .array(focal.replies.compactMap(reply))),
        ])
    }

    func interactions(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let reference = try Self.postReference(params, "post")
        let answer = try await mirror().get("interactions", [("post", reference.description)])
        guard case .object(let members) = answer.data else {
            throw RPCError(.network, "The mirror response could not be parsed.")
        }
        func items(_ key: String) -> [[String: RPCValue]] {
            guard case .array(let values)? = members[key] else { return [] }
            return values.compactMap { if case .object(let item) = $0 { item } else { nil } }
        }
        var moods: [(emoji: String, posts: [String])] = []
        for item in items("reactions") {
            guard case .string(let mood)? = item["mood"], case .string(let uri)? = item["uri"] else { continue }
            if let index = moods.firstIndex(where: { $0.emoji == mood }) {
                moods[index].posts.append(uri)
            } else {
                moods.append((mood, [uri]))
            }
        }
        let sorted = moods.enumerated().sorted {
            ($0.element.posts.count, -$0.offset) > ($1.element.posts.count, -$1.offset)
        }
        let boostPosts = items("boosts").compactMap { if case .string(let uri)? = $0["uri"] { uri } else { nil } }
        return .object([
            ("replies", .int(items("replies").count)), ("boosts", .int(items("boosts").count)),
            (
                "reactions",
                .array(
                    sorted.map {
                        .object([
                            ("emoji", .string($0.element.emoji)), ("count", .int($0.element.posts.count)),
                            ("posts", .array($0.element.posts.map(JSONValue.string))),
                        ])
                    })
            ),
            ("boostPosts", .array(boostPosts.map(JSONValue.string))),
        ])
    }

    func notifications() async throws(RPCError) -> JSONValue {
        guard let own = await state.account.feed else { throw RPCError.notConfigured }
        let answer = try await mirror().get("notifications", [("feed", own), ("page", "1"), ("perPage", "50")])
        guard case .array(let items) = answer.data else { return .array([]) }
        var notifications: [JSONValue] = []
        for case .object(let item) in items {
            guard case .string(let type)? = item["type"], let postValue = item["post"],
                let post = PostJSON.mirror(postValue)
            else { continue }
            let kind = ["mention", "reaction", "reply", "boost"].contains(type) ? type : "unknown"
            guard case .object(var members) = post.json else { continue }
            members = members.filter { $0.0 == "author" }
            var fields: [(String, JSONValue)] = [
                ("id", .string("\(kind):\(post.url)")), ("kind", .string(kind)), ("post", .string(post.url)),
            ]
            if let parent = post.replyTo ?? post.include { fields.append(("parent", .string(parent))) }
            if let mood = post.mood { fields.append(("emoji", .string(mood))) }
            fields += members
            fields.append(("preview", post.json))
            notifications.append(.object(fields))
        }
        return .array(notifications)
    }

    func pollResults(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let reference = try Self.postReference(params, "post")
        let options = (try? await pollOptions(reference).options) ?? []
        let answer = try await mirror().get("polls/votes", [("post", reference.description)])
        var voterOption: [String: String] = [:]
        var voteOrder: [String] = []
        if case .object(let members) = answer.data, case .array(let entries)? = members["options"] {
            for case .object(let entry) in entries {
                guard case .string(let option)? = entry["option"] else { continue }
                if !voteOrder.contains(option) { voteOrder.append(option) }
                if case .array(let voters)? = entry["voters"] {
                    for case .string(let voter) in voters { voterOption[voter] = option }
                }
            }
        }
        let shown = options.isEmpty ? voteOrder : options
        var total = 0
        let results: [JSONValue] = shown.map { option in
            let voters = voterOption.filter { $0.value == option }.map(\.key).sorted()
            total += voters.count
            return .object([
                ("option", .string(option)), ("votes", .int(voters.count)),
                ("voters", .array(voters.map(JSONValue.string))),
            ])
        }
        return .object([("options", .array(results)), ("total", .int(total))])
    }

    /// A poll's options and end: the own feed's post, or the mirror's.
    func pollOptions(_ reference: PostReference) async throws(RPCError) -> (options: [String], endsAt: Date?) {
        if let own = await state.account.feed, FeedURL.same(own, reference.feedURL) {
            let feed = try await store().read()
            guard let poll = feed.post(withID: reference.postID) else {
                throw RPCError(.notFound, "Poll not found: \(reference)")
            }
            return (poll.pollOptions, poll.pollEnd?.sortInstant)
        }
        guard let answer = try? await mirror().get("post", [("post", reference.description)]) else {
            throw RPCError(.notFound, "Poll not found: \(reference)")
        }
        var item = answer.data
        if case .object(let members) = answer.data, let post = members["post"] { item = post }
        guard let poll = PostJSON.mirror(item) else { throw RPCError(.notFound, "Poll not found: \(reference)") }
        return (poll.pollOptions, poll.pollEnd)
    }
}

/// A node of the mirror's thread tree: a post and its replies.
struct ThreadNode: Sendable {
    let post: PostJSON
    let replies: [ThreadNode]

    /// The node in `value` (`{post, replies?}`, or a bare post for a `root`).
    init?(_ value: RPCValue?) {
        guard case .object(let members)? = value else { return nil }
        guard let post = PostJSON.mirror(members["post"] ?? .object(members)) else { return nil }
        self.post = post
        if case .array(let replies)? = members["replies"] {
            self.replies = replies.compactMap { ThreadNode($0) }
        } else {
            self.replies = []
        }
    }

    /// The nodes from this one down to the one whose post is at `url`.
    func path(to url: String) -> [ThreadNode]? {
        if post.url == url { return [self] }
        for reply in replies {
            if let path = reply.path(to: url) { return [self] + path }
        }
        return nil
    }
}
