import Foundation

// The values a relay answers with (`relay-api.md` §2). All decode leniently: unknown keys are ignored,
// optional parts may be missing, and lists that are missing read as empty.

extension KeyedDecodingContainer {
    /// The value at `key`, or `fallback` when it is missing, `null` or of another type.
    fileprivate func lenient<Value: Decodable>(_ key: Key, _ fallback: Value) -> Value {
        ((try? decodeIfPresent(Value.self, forKey: key)) ?? nil) ?? fallback
    }

    /// The value at `key`, or `nil` when it is missing, `null` or of another type.
    fileprivate func optional<Value: Decodable>(_ key: Key) -> Value? {
        (try? decodeIfPresent(Value.self, forKey: key)) ?? nil
    }
}

/// One entry of `_links`: where an endpoint is and how to call it.
public struct RelayLink: Sendable, Hashable, Decodable {
    /// The path, possibly with placeholders (`/mentions/?feed={feed_url}`).
    public var href: String
    /// The method (`GET`, `POST`), if given.
    public var method: String?
    /// Whether `href` holds placeholders.
    public var templated: Bool
    /// A description, if given.
    public var description: String?

    private enum CodingKeys: String, CodingKey { case href, method, templated, description }

    /// Decodes a link.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `href` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        href = try container.decode(String.self, forKey: .href)
        method = container.optional(.method)
        templated = container.lenient(.templated, false)
        description = container.optional(.description)
    }
}

/// The relay's index (`GET /`, `relay-api.md` §2.1).
public struct RelayIndex: Sendable, Hashable {
    /// The relay's name, e.g. "Org Social Relay".
    public var name: String?
    /// Its description.
    public var description: String?
    /// Its links by relation name (`feeds`, `mentions`, `search`, …).
    public var links: [String: RelayLink]

    struct Info: Decodable {
        var name: String?
        var description: String?
    }
}

/// The answer to registering a feed (`POST /feeds/`, §2.3).
public struct RelayFeedRegistration: Sendable, Hashable {
    /// The feed URL as the relay echoed it.
    public var feed: String
    /// Whether the relay added it now (201) rather than knowing it already (200).
    public var isNew: Bool

    /// Makes a registration.
    /// - Parameters:
    ///   - feed: the feed URL.
    ///   - isNew: whether it was added now.
    public init(feed: String, isNew: Bool) {
        self.feed = feed
        self.isNew = isNew
    }
}

/// A reaction to a post (§2.6, §2.9).
public struct RelayReaction: Sendable, Hashable, Decodable {
    /// The reacting post, `<feed>#<id>`.
    public var post: String
    /// The emoji (`MOOD`).
    public var emoji: String?
    /// The post reacted to (missing in `/interactions/`).
    public var parent: String?
}

/// A reply to one of a feed's posts (§2.7).
public struct RelayReply: Sendable, Hashable, Decodable {
    /// The reply, `<feed>#<id>`.
    public var post: String
    /// The post it answers.
    public var parent: String?
}

/// What a notification is about; values this client does not know are kept.
public enum RelayNotificationType: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// The feed was mentioned.
    case mention
    /// Someone reacted to one of its posts.
    case reaction
    /// Someone replied to one of its posts.
    case reply
    /// Someone boosted one of its posts.
    case boost
    /// A type this client does not know.
    case unknown(String)

    /// Makes a type from its wire name.
    /// - Parameter rawValue: e.g. `mention`.
    public init(rawValue: String) {
        switch rawValue {
        case "mention": self = .mention
        case "reaction": self = .reaction
        case "reply": self = .reply
        case "boost": self = .boost
        default: self = .unknown(rawValue)
        }
    }

    /// Decodes a type from a string.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// The wire name.
    public var rawValue: String {
        switch self {
        case .mention: "mention"
        case .reaction: "reaction"
        case .reply: "reply"
        case .boost: "boost"
        case .unknown(let value): value
        }
    }

    /// The wire name.
    public var description: String { rawValue }
}

/// One notification (§2.5).
public struct RelayNotification: Sendable, Hashable, Decodable {
    /// What it is.
    public var type: RelayNotificationType
    /// The post that caused it.
    public var post: String
    /// The emoji, for a reaction.
    public var emoji: String?
    /// The feed's post that was reacted or replied to.
    public var parent: String?
    /// The feed's post that was boosted.
    public var boosted: String?

    private enum CodingKeys: String, CodingKey { case type, post, emoji, parent, boosted }

    /// Decodes a notification.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `post` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = container.optional(.type) ?? .unknown("")
        post = try container.decode(String.self, forKey: .post)
        emoji = container.optional(.emoji)
        parent = container.optional(.parent)
        boosted = container.optional(.boosted)
    }
}

/// A feed's notifications with their counts (§2.5).
public struct RelayNotifications: Sendable, Hashable {
    /// The notifications, in the relay's order (post ID string, descending).
    public var items: [RelayNotification]
    /// How many there are (`meta.total`).
    public var total: Int
    /// The counts per type (`meta.by_type`); with a type filter the others are 0.
    public var byType: Counts

    /// `meta.by_type`.
    public struct Counts: Sendable, Hashable, Decodable {
        /// Mentions.
        public var mentions: Int
        /// Reactions.
        public var reactions: Int
        /// Replies.
        public var replies: Int
        /// Boosts.
        public var boosts: Int

        private enum CodingKeys: String, CodingKey { case mentions, reactions, replies, boosts }

        /// Decodes counts; a missing count is 0.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when it is not an object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            mentions = container.lenient(.mentions, 0)
            reactions = container.lenient(.reactions, 0)
            replies = container.lenient(.replies, 0)
            boosts = container.lenient(.boosts, 0)
        }

        init() {
            mentions = 0
            reactions = 0
            replies = 0
            boosts = 0
        }
    }

    struct Meta: Decodable {
        var total: Int?
        var byType: Counts?
        private enum CodingKeys: String, CodingKey {
            case total
            case byType = "by_type"
        }
    }
}

/// Everything about one post (§2.9).
public struct RelayInteractions: Sendable, Hashable {
    /// Reactions to it (without `parent`).
    public var reactions: [RelayReaction]
    /// Its direct replies.
    public var replies: [String]
    /// Posts that boost it.
    public var boosts: [String]
    /// Its ancestors, root first, without the post itself (`meta.parentChain`).
    public var parentChain: [String]

    struct Payload: Decodable {
        var reactions: [RelayReaction]
        var replies: [String]
        var boosts: [String]
        private enum CodingKeys: String, CodingKey { case reactions, replies, boosts }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            reactions = container.lenient(.reactions, [])
            replies = container.lenient(.replies, [])
            boosts = container.lenient(.boosts, [])
        }
    }
}

/// Posts that reacted to a post with one emoji (a "mood" group, §2.10).
public struct RelayMood: Sendable, Hashable, Decodable {
    /// The emoji.
    public var emoji: String
    /// The reacting posts.
    public var posts: [String]

    private enum CodingKeys: String, CodingKey { case emoji, posts }

    /// Decodes a mood group.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `emoji` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        emoji = try container.decode(String.self, forKey: .emoji)
        posts = container.lenient(.posts, [])
    }
}

/// A node of a thread or group tree (§2.10, §2.12).
public struct RelayThreadNode: Sendable, Hashable, Decodable {
    /// The post.
    public var post: String
    /// Its replies.
    public var children: [RelayThreadNode]
    /// Its reactions, by emoji (none in group trees).
    public var moods: [RelayMood]

    private enum CodingKeys: String, CodingKey { case post, children, moods }

    /// Decodes a node.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `post` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        post = try container.decode(String.self, forKey: .post)
        children = container.lenient(.children, [])
        moods = container.lenient(.moods, [])
    }
}

/// The replies under a post (`GET /replies/`, §2.10).
public struct RelayThread: Sendable, Hashable {
    /// The post asked about (`meta.parent`).
    public var post: String
    /// Its replies, as trees, oldest first.
    public var replies: [RelayThreadNode]
    /// Its own reactions (`meta.moods`).
    public var moods: [RelayMood]
    /// Its ancestors, root first, without the post itself (`meta.parentChain`).
    public var parentChain: [String]

    struct Meta: Decodable {
        var parent: String?
        var moods: [RelayMood]?
        var parentChain: [String]?
    }
}

/// What to search for (§2.11).
public enum RelaySearchQuery: Sendable, Hashable {
    /// Text in a post's content or tags (`?q=`).
    case text(String)
    /// A whole tag (`?tag=`).
    case tag(String)
}

/// One page of search results (§2.11).
public struct RelaySearchPage: Sendable, Hashable {
    /// The matching post URLs, newest first.
    public var posts: [String]
    /// How many match in all.
    public var total: Int
    /// This page's number (from 1).
    public var page: Int
    /// The page size.
    public var perPage: Int
    /// Whether a later page exists.
    public var hasNext: Bool
    /// Whether an earlier page exists.
    public var hasPrevious: Bool

    struct Meta: Decodable {
        var total: Int?
        var page: Int?
        var perPage: Int?
        var hasNext: Bool?
        var hasPrevious: Bool?
    }
}

/// A group on a relay (§2.12).
public struct RelayGroup: Sendable, Hashable, Decodable {
    /// Its display name, e.g. "Org Social".
    public var name: String
    /// Its path on the relay, e.g. `/groups/org-social/`.
    public var href: String?

    /// The slug used in paths: the name lower-cased with spaces as `-` (§2.12).
    public var slug: String {
        if let href {
            let parts = href.split(separator: "/")
            if parts.count >= 2, parts[parts.count - 2] == "groups" { return String(parts[parts.count - 1]) }
        }
        return name.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    /// Makes a group.
    /// - Parameters:
    ///   - name: the display name.
    ///   - href: its path, if known.
    public init(name: String, href: String? = nil) {
        self.name = name
        self.href = href
    }

    struct Links: Decodable {
        var groups: [RelayGroup]?
    }
}

/// A group's messages (§2.12).
public struct RelayGroupMessages: Sendable, Hashable {
    /// The group's display name (`meta.group`).
    public var group: String?
    /// The feeds with at least one post in the group.
    public var members: [String]
    /// The posts as trees, newest first (nodes have no moods).
    public var posts: [RelayThreadNode]

    struct Meta: Decodable {
        var group: String?
        var members: [String]?
    }
}

/// A poll, as `GET /polls/?feed=` lists it (§2.13).
public struct RelayPoll: Sendable, Hashable, Decodable {
    /// `<feed>#<id>`.
    public var id: String
    /// The post ID.
    public var postID: String?
    /// The poll's text.
    public var content: String?
    /// When it closes (ISO 8601, UTC), as the relay wrote it.
    public var pollEnd: String?
    /// Whether it is still open.
    public var isActive: Bool?
    /// The options.
    public var options: [String]
    /// When it was posted (ISO 8601, UTC).
    public var createdAt: String?

    private enum CodingKeys: String, CodingKey {
        case id, content, options
        case postID = "post_id"
        case pollEnd = "poll_end"
        case isActive = "is_active"
        case createdAt = "created_at"
    }

    /// Decodes a poll.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `id` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        postID = container.optional(.postID)
        content = container.optional(.content)
        pollEnd = container.optional(.pollEnd)
        isActive = container.optional(.isActive)
        options = container.lenient(.options, [])
        createdAt = container.optional(.createdAt)
    }
}

/// The votes on a poll (`GET /polls/votes/`, §2.14).
public struct RelayPollVotes: Sendable, Hashable {
    /// The poll (`meta.poll`).
    public var poll: String?
    /// Each option with its vote posts, in the poll's order.
    public var options: [Option]
    /// The votes counted (`meta.total_votes`).
    public var totalVotes: Int

    /// One option and its votes.
    public struct Option: Sendable, Hashable, Decodable {
        /// The option's text.
        public var option: String
        /// The vote posts.
        public var votes: [String]

        private enum CodingKeys: String, CodingKey { case option, votes }

        /// Decodes an option.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when `option` is missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            option = try container.decode(String.self, forKey: .option)
            votes = container.lenient(.votes, [])
        }
    }

    struct Meta: Decodable {
        var poll: String?
        var totalVotes: Int?
        private enum CodingKeys: String, CodingKey {
            case poll
            case totalVotes = "total_votes"
        }
    }
}

/// What a relay knows of a feed (`GET /profile/`, §2.15): only its followers.
public struct RelayProfile: Sendable, Hashable, Decodable {
    /// The feed URL.
    public var feed: String
    /// The feeds that follow it.
    public var followers: [String]

    private enum CodingKeys: String, CodingKey { case feed, followers }

    /// Decodes a profile.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `feed` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        feed = try container.decode(String.self, forKey: .feed)
        followers = container.lenient(.followers, [])
    }
}

/// The relay's statistics (`GET /stats/`, §2.17).
public struct RelayStats: Sendable, Hashable, Decodable {
    /// Activity per year (`"2025"`) and month (`"02"`).
    public var years: [String: [String: Month]]
    /// Totals.
    public var global: Global

    /// One month's activity; counts the relay leaves out are 0.
    public struct Month: Sendable, Hashable, Decodable {
        /// Feeds that posted.
        public var activeAccounts: Int
        /// All posts.
        public var totalPosts: Int
        /// Plain posts.
        public var posts: Int
        /// Replies (including votes).
        public var replies: Int
        /// Boosts.
        public var boosts: Int
        /// Reactions.
        public var reactions: Int
        /// Group posts.
        public var groupMessages: Int
        /// Polls.
        public var polls: Int

        private enum CodingKeys: String, CodingKey {
            case posts, replies, boosts, reactions, polls
            case activeAccounts = "active_accounts"
            case totalPosts = "total_posts"
            case groupMessages = "group_messages"
        }

        /// Decodes a month.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when it is not an object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            activeAccounts = container.lenient(.activeAccounts, 0)
            totalPosts = container.lenient(.totalPosts, 0)
            posts = container.lenient(.posts, 0)
            replies = container.lenient(.replies, 0)
            boosts = container.lenient(.boosts, 0)
            reactions = container.lenient(.reactions, 0)
            groupMessages = container.lenient(.groupMessages, 0)
            polls = container.lenient(.polls, 0)
        }
    }

    /// The relay's totals.
    public struct Global: Sendable, Hashable, Decodable {
        /// Feeds registered.
        public var registeredFeeds: Int
        /// Feeds with a profile.
        public var totalAccounts: Int
        /// Posts.
        public var totalPosts: Int
        /// Follow relations.
        public var totalFollows: Int
        /// Groups with posts.
        public var activeGroups: Int

        private enum CodingKeys: String, CodingKey {
            case registeredFeeds = "registered_feeds"
            case totalAccounts = "total_accounts"
            case totalPosts = "total_posts"
            case totalFollows = "total_follows"
            case activeGroups = "active_groups"
        }

        /// Decodes totals.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when it is not an object.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            registeredFeeds = container.lenient(.registeredFeeds, 0)
            totalAccounts = container.lenient(.totalAccounts, 0)
            totalPosts = container.lenient(.totalPosts, 0)
            totalFollows = container.lenient(.totalFollows, 0)
            activeGroups = container.lenient(.activeGroups, 0)
        }

        init() {
            registeredFeeds = 0
            totalAccounts = 0
            totalPosts = 0
            totalFollows = 0
            activeGroups = 0
        }
    }

    private enum CodingKeys: String, CodingKey { case years, global }

    /// Decodes statistics.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when it is not an object.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        years = container.lenient(.years, [:])
        global = container.optional(.global) ?? Global()
    }
}
