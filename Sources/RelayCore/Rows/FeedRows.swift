/// The notifications of a feed, merged newest first (ties in kind order), and how many of each kind
/// were asked for (`/notifications/`).
package struct FeedNotifications: Sendable, Hashable {
    /// The notifications; `targetFeed` is the feed asked about.
    package var notices: [InteractionNotice]
    /// How many notices of each kind asked for; kinds not asked for are absent.
    package var counts: [InteractionNotice.Kind: Int]

    /// Makes the list.
    package init(notices: [InteractionNotice], counts: [InteractionNotice.Kind: Int]) {
        self.notices = notices
        self.counts = counts
    }
}

/// A post with a mood replying to one of a feed's posts (`/reactions/`).
package struct FeedReaction: Sendable, Hashable {
    /// The reacting post, `<feed>#<id>`.
    package var post: String
    /// Its mood.
    package var emoji: String
    /// The post reacted to.
    package var parent: String

    /// Makes a reaction.
    package init(post: String, emoji: String, parent: String) {
        self.post = post
        self.emoji = emoji
        self.parent = parent
    }
}

/// A reply without a mood to one of a feed's posts (`/replies-to/`).
package struct FeedReply: Sendable, Hashable {
    /// The reply, `<feed>#<id>`.
    package var post: String
    /// The post replied to.
    package var parent: String

    /// Makes a reply.
    package init(post: String, parent: String) {
        self.post = post
        self.parent = parent
    }
}
