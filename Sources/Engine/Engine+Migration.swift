import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial

/// Scheduled posts, share links and migrations (engine-protocol.md §9.17–9.19, §9.30–9.31).
extension Engine {
    func scheduled() async throws(RPCError) -> JSONValue {
        guard let own = await state.account.feed else { throw RPCError.notConfigured }
        let feed = try await store().read()
        let now = Date()
        let posts = feed.posts.compactMap { PostJSON.own($0, in: feed, feedURL: own) }.filter { $0.date > now }
            .sorted { $0.date < $1.date }
        return .array(posts.map(\.json))
    }

    func share(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let account = await state.account
        let post = try params.has("post") ? Self.postReference(params, "post") : nil
        var feed = try params.string("feed")
        if let feed { try EngineAccount.checkHTTP(feed, "feed") }
        if let post { feed = post.feedURL }
        guard let feed = feed ?? account.feed else { throw RPCError.notConfigured }
        var members: [(String, JSONValue)] = [
            ("rss", .string("\(account.relay)/rss.xml?feed=\(Self.fullyEncoded(feed))"))
        ]
        if let post {
            var preview = account.preview
            while preview.hasSuffix("/") { preview.removeLast() }
            members.append(("preview", .string("\(preview)/?post=\(Self.fullyEncoded(post.description))")))
        }
        return .object(members)
    }

    /// Every character but letters, digits and `-._~` percent-encoded.
    static func fullyEncoded(_ text: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    func migrate(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let from = try params.requiredString("from")
        let to = try params.requiredString("to")
        guard let own = await state.account.feed else { throw RPCError.notConfigured }
        guard from == own else { throw .invalidParams("from must be your current feed, \(own)") }
        try EngineAccount.checkHTTP(to, "to")
        guard to != from else { throw .invalidParams("to must be a different feed") }
        var draft = await draft()
        draft.migration = Migration(oldURL: from, newURL: to)
        return try await append(draft)
    }

    func applyMigration(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let from = try params.requiredString("from")
        let to = try params.requiredString("to")
        try await write { feed in
            guard let follow = feed.profile.follows.first(where: { FeedURL.same($0.url, from) }) else {
                throw RPCError(.notFound, "You don't follow \(from).")
            }
            try feed.unfollow(follow.url)
            try feed.addKeywordAtHeaderEnd("FOLLOW", value: follow.label.map { "\($0) \(to)" } ?? to)
        }
        return .object([])
    }
}
