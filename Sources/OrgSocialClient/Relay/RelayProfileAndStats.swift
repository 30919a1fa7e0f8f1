import Foundation

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
