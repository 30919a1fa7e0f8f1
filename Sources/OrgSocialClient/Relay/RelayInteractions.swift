import Foundation

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

    init(post: String, children: [RelayThreadNode], moods: [RelayMood] = []) {
        self.post = post
        self.children = children
        self.moods = moods
    }

    /// This post, the reactions to it, and every reply below it with its own reactions, depth first.
    public var allPosts: [String] {
        [post] + moods.flatMap(\.posts) + children.flatMap(\.allPosts)
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

    /// Every post URL the thread names, without the post itself: its ancestors (root first), its own
    /// reactions, then each reply tree depth first (``RelayThreadNode/allPosts``).
    public var allPosts: [String] {
        parentChain + moods.flatMap(\.posts) + replies.flatMap(\.allPosts)
    }

    struct Meta: Decodable {
        var parent: String?
        var moods: [RelayMood]?
        var parentChain: [String]?
    }
}
