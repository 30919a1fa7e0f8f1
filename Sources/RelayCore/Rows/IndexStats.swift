/// What the index holds (`/stats/`, `relay stats`): counters per UTC month of the post instant, and
/// global totals.
package struct IndexStats: Sendable, Hashable {
    /// One entry per month with posts, oldest first.
    package var months: [MonthCounters]
    /// The totals.
    package var global: GlobalCounters

    /// Makes the stats.
    package init(months: [MonthCounters], global: GlobalCounters) {
        self.months = months
        self.global = global
    }
}

/// The counters of one month.
package struct MonthCounters: Sendable, Hashable {
    /// The year, four digits (`2025`).
    package var year: String
    /// The month, two digits (`02`).
    package var month: String
    /// The distinct authors.
    package var activeAccounts: Int
    /// Every post.
    package var totalPosts: Int
    /// Posts that are neither replies nor boosts.
    package var posts: Int
    /// Replies that are not mood-only.
    package var replies: Int
    /// Boosts that are not replies.
    package var boosts: Int
    /// Mood-only replies.
    package var reactions: Int
    /// Posts in an enabled group.
    package var groupMessages: Int
    /// Polls.
    package var polls: Int

    /// Makes the counters.
    package init(
        year: String, month: String, activeAccounts: Int, totalPosts: Int, posts: Int, replies: Int, boosts: Int,
        reactions: Int, groupMessages: Int, polls: Int
    ) {
        self.year = year
        self.month = month
        self.activeAccounts = activeAccounts
        self.totalPosts = totalPosts
        self.posts = posts
        self.replies = replies
        self.boosts = boosts
        self.reactions = reactions
        self.groupMessages = groupMessages
        self.polls = polls
    }
}

/// The index's totals.
package struct GlobalCounters: Sendable, Hashable {
    /// Crawl-list URLs, bridges left out.
    package var registeredFeeds: Int
    /// Profiles, bridges left out.
    package var totalAccounts: Int
    /// Posts.
    package var totalPosts: Int
    /// Follow relations.
    package var totalFollows: Int
    /// Enabled groups with at least one message.
    package var activeGroups: Int

    /// Makes the totals.
    package init(registeredFeeds: Int, totalAccounts: Int, totalPosts: Int, totalFollows: Int, activeGroups: Int) {
        self.registeredFeeds = registeredFeeds
        self.totalAccounts = totalAccounts
        self.totalPosts = totalPosts
        self.totalFollows = totalFollows
        self.activeGroups = activeGroups
    }
}
