import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial

/// The read methods (engine-protocol.md §9.4–9.15).
extension Engine {
    /// Own posts shown in lists: no reactions, boosts, votes, group posts or scheduled posts, newest first.
    /// Only their dates are worked out for every post; the JSON is made for the ones shown.
    static func ownListed(_ feed: Feed, now: Date = Date()) -> [(post: Post, date: Date)] {
        feed.posts.compactMap { post -> (post: Post, date: Date)? in
            guard post.id != nil, let date = post.instant, date <= now, post.group == nil,
                ![.reaction, .boost, .vote].contains(post.kind)
            else { return nil }
            return (post, date)
        }
        .sorted { $0.date > $1.date }
    }

    /// Drops what a list never shows and what the filters hide (mirror-api.md §2.2).
    func visible(_ post: PostJSON, account: EngineAccount, groups: Bool = false) -> Bool {
        if post.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return false }
        if post.group != nil, !groups { return false }
        if post.visibility == "mention", let own = account.feed, post.authorFeed != own,
            !post.mentions.contains(where: { FeedURL.same($0.feedURL, own) }),
            !post.text.contains("[[org-social:\(own)]")
        {
            return false
        }
        if post.visibility == "mention", account.feed == nil { return false }
        if let author = post.authorFeed, account.blocked.contains(where: { FeedURL.same($0, author) }) { return false }
        let haystack = ([post.text] + post.tags).map { $0.lowercased() }
        for word in account.mutedWords where !word.isEmpty {
            if haystack.contains(where: { $0.contains(word.lowercased()) }) { return false }
        }
        return true
    }

    func timeline(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let scope = try params.requiredString("scope")
        guard scope == "following" || scope == "all" else {
            throw .invalidParams("scope must be \"following\" or \"all\"")
        }
        let page = max(1, try params.int("page") ?? 1)
        let perPage = min(100, max(1, try params.int("perPage") ?? 40))
        let sinceDays = max(1, try params.int("sinceDays") ?? 14)
        let langs = try params.strings("langs") ?? []
        _ = try params.bool("includeBoosts")
        let account = await state.account
        var ownFeed: Feed?
        var query: [(String, String)] = []
        if scope == "following" {
            guard let own = account.feed else { return .object([("posts", .array([])), ("hasMore", .bool(false))]) }
            let feed = try await store().read()
            ownFeed = feed
            query = [("following", own)] + feed.profile.follows.map { ("following", $0.url) }
        } else {
            query = [("scope", "all")]
            if account.feed != nil { ownFeed = try? await store().read() }
        }
        query += langs.map { ("lang", $0) }
        query += [("sinceDays", String(sinceDays)), ("page", String(page)), ("perPage", String(perPage))]
        let answer = try await mirror().get("posts", query)
        var posts = mirrorPosts(answer.data, account: account, ownFeed: ownFeed)
        if scope == "following", page == 1, let ownFeed, let own = account.feed {
            let newest = posts.map(\.date).max()
            let since = Date().addingTimeInterval(-Double(sinceDays) * 86_400)
            let seen = Set(posts.map(\.url))
            posts += Self.ownListed(ownFeed).prefix { own in
                own.date >= since && (newest.map { own.date > $0 } ?? true)
            }
            .compactMap { PostJSON.own($0.post, in: ownFeed, feedURL: own) }.filter { !seen.contains($0.url) }
        }
        return Self.page(posts, hasMore: answer.hasMore, viewers: ViewerIndex(ownFeed))
    }

    /// The mirror's posts that a list shows, own posts replaced by the own feed's version.
    func mirrorPosts(_ data: RPCValue, account: EngineAccount, ownFeed: Feed?, groups: Bool = false) -> [PostJSON] {
        guard case .array(let items) = data else { return [] }
        var seen: Set<String> = []
        var posts: [PostJSON] = []
        for item in items {
            guard var post = PostJSON.mirror(item) else { continue }
            if let own = account.feed, post.authorFeed == own {
                guard let ownFeed, let local = ownFeed.post(withID: post.timestamp),
                    let replaced = PostJSON.own(local, in: ownFeed, feedURL: own)
                else { continue }
                post = replaced
            }
            guard visible(post, account: account, groups: groups), seen.insert(post.url).inserted else { continue }
            posts.append(post)
        }
        return posts
    }

    /// `{"posts": [...], "hasMore": …}`, newest first, with the viewer state.
    static func page(_ posts: [PostJSON], hasMore: Bool, viewers: ViewerIndex) -> JSONValue {
        let sorted = posts.sorted { $0.date > $1.date }.map { post -> JSONValue in
            var post = post
            post.viewer = viewers.viewer(of: post.url)
            return post.json
        }
        return .object([("posts", .array(sorted)), ("hasMore", .bool(hasMore))])
    }

    func profile(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let feed = try params.requiredString("feed")
        try EngineAccount.checkHTTP(feed, "feed")
        let page = max(1, try params.int("page") ?? 1)
        let account = await state.account
        if let own = account.feed, FeedURL.same(own, feed) {
            let ownFeed = try await store().read()
            var profile = ProfileJSON.own(ownFeed, feedURL: own)
            if let counts = try? await mirror().get("profile", [("feed", own)]).data,
                case .object(let fields) = counts, case .object(var members) = profile
            {
                for key in ["postCount", "followerCount", "followingCount"] {
                    if case .int(let value)? = fields[key] { members.append((key, .int(value))) }
                }
                profile = .object(members)
            }
            let posts = Self.ownListed(ownFeed)
            let slice = posts.dropFirst((page - 1) * 40).prefix(40).compactMap {
                PostJSON.own($0.post, in: ownFeed, feedURL: own)
            }
            let viewers = ViewerIndex(ownFeed)
            return .object([
                ("profile", profile),
                (
                    "posts",
                    .array(
                        slice.map { post in
                            var post = post
                            post.viewer = viewers.viewer(of: post.url)
                            return post.json
                        })
                ),
                ("hasMore", .bool(posts.count > page * 40)), ("isFollowed", .bool(false)), ("isOwn", .bool(true)),
            ])
        }
        let ownFeed: Feed? = account.feed == nil ? nil : try? await store().read()
        let timeline = try await mirror().get("timeline", [("feed", feed), ("page", String(page)), ("perPage", "40")])
        let posts = mirrorPosts(timeline.data, account: account, ownFeed: ownFeed)
        var fields: [String: RPCValue] = [:]
        if case .object(let members) = try await mirror().get("profile", [("feed", feed)]).data { fields = members }
        let profile = ProfileJSON.mirror(fields, feed: feed)
        let followed = ownFeed?.profile.follows.contains { FeedURL.same($0.url, feed) } ?? false
        guard case .object(var members) = Self.page(posts, hasMore: timeline.hasMore, viewers: ViewerIndex(ownFeed))
        else { return .null }
        members.insert(("profile", profile), at: 0)
        members += [("isFollowed", .bool(followed)), ("isOwn", .bool(false))]
        return .object(members)
    }

    func post(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let reference = try Self.postReference(params, "post")
        let account = await state.account
        let ownFeed: Feed? = account.feed == nil ? nil : try? await store().read()
        if let own = account.feed, FeedURL.same(reference.feedURL, own), let ownFeed {
            guard let local = ownFeed.post(withID: reference.postID),
                var json = PostJSON.own(local, in: ownFeed, feedURL: own)
            else { throw RPCError(.notFound, "Post not found: \(reference)") }
            json.viewer = ViewerIndex(ownFeed).viewer(of: json.url)
            return json.json
        }
        let answer = try await mirror().get("post", [("post", reference.description)])
        let item: RPCValue
        if case .object(let members) = answer.data, let post = members["post"] {
            item = post
        } else {
            item = answer.data
        }
        guard var json = PostJSON.mirror(item) else {
            throw RPCError(.network, "The mirror response could not be parsed.")
        }
        json.viewer = ViewerIndex(ownFeed).viewer(of: json.url)
        return json.json
    }

    func groups() async throws(RPCError) -> JSONValue {
        let account = await state.account
        let ownFeed: Feed? = account.feed == nil ? nil : try? await store().read()
        let joined = ownFeed?.profile.groups ?? []
        let answer = try await mirror().get("groups")
        var groups: [JSONValue] = []
        var listed: [(String, String)] = []
        if case .array(let items) = answer.data {
            for case .object(let group) in items {
                guard case .string(let name)? = group["name"] else { continue }
                var slug = name.lowercased()
                if case .string(let value)? = group["slug"] { slug = value }
                var relay = "https://relay.org-social.org"
                if case .string(let value)? = group["relay"], !value.isEmpty { relay = value }
                var count = 0
                if case .int(let value)? = group["count"] { count = value }
                let isJoined = joined.contains { $0.name == name && $0.relayURL == relay }
                listed.append((name, relay))
                groups.append(
                    .object([
                        ("name", .string(name)), ("slug", .string(slug)), ("relay", .string(relay)),
                        ("count", .int(count)), ("joined", .bool(isJoined)),
                    ]))
            }
        }
        for group in joined where !listed.contains(where: { $0 == (group.name, group.relayURL) }) {
            groups.append(
                .object([
                    ("name", .string(group.name)), ("relay", .string(group.relayURL)), ("count", .int(0)),
                    ("joined", .bool(true)),
                ]))
        }
        return .array(groups)
    }

    func follows() async throws(RPCError) -> JSONValue {
        guard await state.account.feed != nil, let feed = try? await store().read() else { return .array([]) }
        return .array(
            feed.profile.follows.map { follow in
                var fields: [(String, JSONValue)] = [("feed", .string(follow.url))]
                if let label = follow.label { fields.append(("nick", .string(label))) }
                return .object(fields)
            })
    }

    func ownFeed() async throws(RPCError) -> JSONValue {
        .object([("content", .string(try await store().read().text))])
    }

    /// A `post`, `replyTo` or `include` param: `<feed-url>#<timestamp>` (the message says `post` for all
    /// three, as the official engine's does).
    static func postReference(_ params: RPCParams, _ name: String) throws(RPCError) -> PostReference {
        let text = try params.requiredString(name)
        guard let reference = PostReference(parsing: text), !text.contains(" ") else {
            throw .invalidParams("post must be \"<feed-url>#<timestamp>\"")
        }
        return reference
    }
}
