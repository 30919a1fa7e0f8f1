import Foundation

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
