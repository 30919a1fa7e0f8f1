/// A post asked about by its feed and ID (the two halves of `feed#id`).
package struct PostKey: Sendable, Hashable {
    /// The author's feed URL.
    package var feed: String
    /// The post ID.
    package var postID: String

    /// Makes a key.
    package init(feed: String, postID: String) {
        self.feed = feed
        self.postID = postID
    }

    /// The key of the post at `url` (`<feed>#<post ID>`), split at its first `#` (feed URLs have no
    /// fragment, so the ID is everything after it); `nil` when `url` has no `#`.
    /// - Parameter url: a post URL.
    package init?(url: String) {
        guard let hash = url.firstIndex(of: "#") else { return nil }
        self.init(feed: String(url[..<hash]), postID: String(url[url.index(after: hash)...]))
    }
}

/// The boosts of one post (`/boosts/`).
package struct PostBoosts: Sendable, Hashable {
    /// The post's stored URL.
    package var post: String
    /// The posts including it, newest first.
    package var boosts: [String]

    /// Makes the list.
    package init(post: String, boosts: [String]) {
        self.post = post
        self.boosts = boosts
    }
}

/// What happened to one post (`/interactions/`).
package struct PostInteractions: Sendable, Hashable {
    /// The post's stored URL.
    package var post: String
    /// The post's feed URL.
    package var feed: String
    /// The posts with a mood replying to it (poll votes left out), newest first.
    package var reactions: [PostMood]
    /// The replies without a mood (poll votes left out), newest first.
    package var replies: [String]
    /// The posts including it, newest first.
    package var boosts: [String]
    /// Its ancestors, root first.
    package var parentChain: [String]

    /// Makes the interactions.
    package init(
        post: String, feed: String, reactions: [PostMood], replies: [String], boosts: [String], parentChain: [String]
    ) {
        self.post = post
        self.feed = feed
        self.reactions = reactions
        self.replies = replies
        self.boosts = boosts
        self.parentChain = parentChain
    }
}

/// A post and its mood.
package struct PostMood: Sendable, Hashable {
    /// The reacting post.
    package var post: String
    /// Its mood.
    package var emoji: String

    /// Makes a mood.
    package init(post: String, emoji: String) {
        self.post = post
        self.emoji = emoji
    }
}

/// The thread below one post (`/replies/`).
package struct PostThread: Sendable, Hashable {
    /// The post's stored URL.
    package var post: String
    /// The replies with content, oldest first.
    package var replies: [ThreadReply]
    /// The mood-only replies, grouped by mood in first-seen order.
    package var moods: [MoodGroup]
    /// The post's ancestors, root first.
    package var parentChain: [String]

    /// Makes the thread.
    package init(post: String, replies: [ThreadReply], moods: [MoodGroup], parentChain: [String]) {
        self.post = post
        self.replies = replies
        self.moods = moods
        self.parentChain = parentChain
    }
}

/// One reply of a thread with the replies below it.
package struct ThreadReply: Sendable, Hashable {
    /// The reply.
    package var post: String
    /// The replies to it, oldest first.
    package var replies: [ThreadReply]
    /// Its mood-only replies, grouped by mood.
    package var moods: [MoodGroup]

    /// Makes a node.
    package init(post: String, replies: [ThreadReply], moods: [MoodGroup]) {
        self.post = post
        self.replies = replies
        self.moods = moods
    }
}

/// The mood-only replies of one post that carry one mood.
package struct MoodGroup: Sendable, Hashable {
    /// The mood.
    package var emoji: String
    /// The replies, oldest first.
    package var posts: [String]

    /// Makes a group.
    package init(emoji: String, posts: [String]) {
        self.emoji = emoji
        self.posts = posts
    }
}
