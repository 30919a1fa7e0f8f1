import EngineProtocol
package import Foundation
package import HTTPCore
package import OrgSocial

/// A post as the protocol shows it (PostDTO, engine-protocol.md §4), made from an own post or from a
/// mirror post; ``json`` writes it with the keys that are always there and the ones that are set.
package struct PostJSON: Sendable {
    package var url: String
    package var timestamp: String
    package var date: Date
    package var authorFeed: String?
    package var authorNick: String?
    package var authorAvatar: String?
    package var text: String
    package var tags: [String] = []
    package var mentions: [Mention] = []
    package var lang: String?
    package var mood: String?
    package var replyTo: String?
    package var include: String?
    package var visibility: String?
    package var group: String?
    package var pollEnd: Date?
    package var pollOption: String?
    package var pollOptions: [String] = []
    package var migration: String?
    package var bot: String?
    package var client: String?
    package var isOwn = false
    package var isPinned = false
    package var viewer: Viewer?

    /// The own feed's reaction, boost and vote on a post.
    package struct Viewer: Sendable, Hashable {
        package var reaction: String?
        package var reactionTimestamp: String?
        package var boostTimestamp: String?
        package var vote: String?
        package var voteTimestamp: String?
    }

    /// An empty-bodied `INCLUDE` post.
    package var isSimpleBoost: Bool { include != nil && text.isEmpty }

    /// An own post.
    /// - Parameters:
    ///   - post: the post.
    ///   - feed: the own feed.
    ///   - feedURL: the own feed's URL.
    /// - Returns: the post, or `nil` when it has no usable ID.
    package static func own(_ post: Post, in feed: Feed, feedURL: String) -> PostJSON? {
        guard let id = post.id, let date = post.instant else { return nil }
        var json = PostJSON(
            url: "\(feedURL)#\(id)", timestamp: id, date: date, authorFeed: feedURL, authorNick: feed.profile.nick,
            authorAvatar: feed.profile.avatar, text: post.body.trimmingCharacters(in: .whitespacesAndNewlines))
        json.tags = post.tags
        json.mentions = post.mentions
        json.lang = post.language
        json.mood = post.mood
        json.replyTo = post.replyTo?.description
        json.include = post.include?.description
        json.visibility = post.value(of: "VISIBILITY")
        json.group = post.value(of: "GROUP")
        json.pollEnd = post.pollEnd?.instant
        json.pollOption = post.pollOption
        json.pollOptions = post.pollOptions
        json.migration = post.value(of: "MIGRATION")
        json.bot = post.value(of: "BOT")
        json.client = post.client
        json.isOwn = true
        json.isPinned = feed.profile.pinned == id
        return json
    }

    /// The JSON object.
    package var json: JSONValue {
        var author: [(String, JSONValue)] = []
        if let authorFeed { author.append(("feed", .string(authorFeed))) }
        if let authorNick { author.append(("nick", .string(authorNick))) }
        if let authorAvatar { author.append(("avatar", .string(authorAvatar))) }
        let mentionValues: [JSONValue] = mentions.map {
            .object([("nick", .string($0.name ?? "")), ("feed", .string($0.feedURL))])
        }
        var members: [(String, JSONValue)] = [
            ("url", .string(url)), ("timestamp", .string(timestamp)), ("date", .string(Self.utc(date))),
            ("author", .object(author)), ("text", .string(text)),
            ("body", Self.body(text, mentions: mentionValues)),
            ("tags", .array(tags.map(JSONValue.string))), ("isSimpleBoost", .bool(isSimpleBoost)),
            ("interactionTarget", .string(isSimpleBoost ? include ?? url : url)), ("isOwn", .bool(isOwn)),
            ("isPinned", .bool(isPinned)),
        ]
        let optional: [(String, String?)] = [
            ("lang", lang), ("mood", mood), ("replyTo", replyTo), ("include", include), ("visibility", visibility),
            ("group", group), ("pollEnd", pollEnd.map(Self.utc)), ("pollOption", pollOption),
            ("migration", migration), ("bot", bot), ("client", client),
        ]
        for (key, value) in optional { if let value { members.append((key, .string(value))) } }
        if let pollEnd, !pollOptions.isEmpty {
            members.append(
                (
                    "poll",
                    .object([
                        ("options", .array(pollOptions.map(JSONValue.string))), ("endsAt", .string(Self.utc(pollEnd))),
                        ("isOpen", .bool(Date() < pollEnd)), ("question", Self.body(pollQuestion, mentions: [])),
                    ])
                ))
        }
        if let viewer {
            var fields: [(String, JSONValue)] = []
            let values: [(String, String?)] = [
                ("reaction", viewer.reaction), ("reactionTimestamp", viewer.reactionTimestamp),
                ("boostTimestamp", viewer.boostTimestamp), ("vote", viewer.vote),
                ("voteTimestamp", viewer.voteTimestamp),
            ]
            for (key, value) in values { if let value { fields.append((key, .string(value))) } }
            members.append(("viewer", .object(fields)))
        }
        return .object(members)
    }

    /// A poll's question: its text without the option lines.
    var pollQuestion: String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { PollOptionLine.option(in: $0) == nil }.joined(separator: "\n")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A BodyDTO: the text as one span (Org markup is not parsed yet), no blocks or images.
    static func body(_ text: String, mentions: [JSONValue]) -> JSONValue {
        .object([
            ("spans", .array(text.isEmpty ? [] : [.object([("text", .string(text))])])),
            ("blocks", .array([])), ("images", .array([])), ("mentions", .array(mentions)),
        ])
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`.
    /// - Parameter date: the moment.
    /// - Returns: the text.
    package static func utc(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}

/// The own feed's reactions, boosts and votes, by the post they target (engine-protocol.md §6.2).
package struct ViewerIndex: Sendable {
    private var viewers: [String: PostJSON.Viewer] = [:]

    /// The index of `feed`'s posts.
    /// - Parameter feed: the own feed, or `nil` without an account.
    package init(_ feed: Feed?) {
        guard let feed else { return }
        for post in feed.posts {
            guard let id = post.id else { continue }
            switch post.kind {
            case .reaction:
                guard let target = post.replyTo?.description else { continue }
                viewers[target, default: PostJSON.Viewer()].reaction = post.mood
                viewers[target, default: PostJSON.Viewer()].reactionTimestamp = id
            case .boost:
                guard let target = post.include?.description else { continue }
                viewers[target, default: PostJSON.Viewer()].boostTimestamp = id
            case .vote:
                guard let target = post.replyTo?.description else { continue }
                viewers[target, default: PostJSON.Viewer()].vote = post.pollOption
                viewers[target, default: PostJSON.Viewer()].voteTimestamp = id
            default:
                continue
            }
        }
    }

    /// The viewer state of the post at `url`.
    /// - Parameter url: the post's URL.
    /// - Returns: the state, or `nil` when the own feed has no reaction, boost or vote on it.
    package func viewer(of url: String) -> PostJSON.Viewer? { viewers[url] }
}
