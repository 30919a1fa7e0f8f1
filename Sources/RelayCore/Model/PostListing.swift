package import Foundation

/// Which posts a paged post list holds (the mirror API's `posts/`): every indexed post with text, or those
/// of some feeds, in some languages, since some instant.
package struct PostListQuery: Sendable, Hashable {
    /// The feeds whose posts are listed, or `nil` for every feed.
    package var feeds: [String]?
    /// The languages kept (a post's `LANG`), or empty for any.
    package var languages: [String]
    /// The oldest instant kept, or `nil` for no limit.
    package var since: Date?
    /// The 1-based page.
    package var page: Int
    /// The posts per page, at least 1.
    package var perPage: Int
    /// Whether posts without text (reactions, boosts, poll votes) are listed too.
    package var includesInteractions: Bool

    /// Makes a query.
    package init(
        feeds: [String]?, languages: [String] = [], since: Date? = nil, page: Int = 1, perPage: Int = 20,
        includesInteractions: Bool = false
    ) {
        self.feeds = feeds
        self.languages = languages
        self.since = since
        self.includesInteractions = includesInteractions
        self.page = max(1, page)
        self.perPage = max(1, perPage)
    }
}

/// One post of a post list, with the properties a social.org file gives it.
package struct ListedPost: Sendable, Hashable {
    /// The author's feed URL.
    package var feed: String
    /// The post's id, its timestamp as written.
    package var id: String
    /// The author's nick.
    package var nick: String
    /// The post's Org text.
    package var content: String
    /// `LANG`, or empty.
    package var lang: String
    /// `TAGS`, in order.
    package var tags: [String]
    /// `CLIENT`, or empty.
    package var client: String
    /// `REPLY_TO`, if any.
    package var replyTo: String?
    /// `MOOD`, or empty.
    package var mood: String
    /// `GROUP`, if any.
    package var group: String?
    /// `INCLUDE`, if any.
    package var include: String?
    /// `POLL_END`, if any.
    package var pollEnd: Date?
    /// `POLL_OPTION`, if any.
    package var pollOption: String?
    /// The post's instant.
    package var createdAt: Date

    /// The post's URL, `<feed>#<id>`.
    package var url: String { feed + "#" + id }

    /// Makes a post.
    package init(
        feed: String, id: String, nick: String, content: String, lang: String = "", tags: [String] = [],
        client: String = "", replyTo: String? = nil, mood: String = "", group: String? = nil,
        include: String? = nil, pollEnd: Date? = nil, pollOption: String? = nil, createdAt: Date
    ) {
        self.feed = feed
        self.id = id
        self.nick = nick
        self.content = content
        self.lang = lang
        self.tags = tags
        self.client = client
        self.replyTo = replyTo
        self.mood = mood
        self.group = group
        self.include = include
        self.pollEnd = pollEnd
        self.pollOption = pollOption
        self.createdAt = createdAt
    }
}

/// One page of a post list, newest first, with how many posts the whole list holds: exactly up to
/// ``SearchResults/exactTotalBound`` posts, estimated beyond (counting a list most of a million posts are
/// in costs more than the page), as the search does.
package struct PostListPage: Sendable, Hashable {
    /// The page's posts, newest first.
    package var posts: [ListedPost]
    /// The number of posts in the whole list, or an estimate when ``totalIsEstimated``.
    package var total: Int
    /// Whether ``total`` is an estimate (more than ``SearchResults/exactTotalBound`` posts).
    package var totalIsEstimated: Bool
    /// Whether a later page holds posts (known exactly either way).
    package var hasMore: Bool

    /// Makes a page of an exactly counted list.
    package init(posts: [ListedPost], total: Int) {
        self.posts = posts
        self.total = total
        totalIsEstimated = false
        hasMore = false
    }

    /// Makes a page of a list counted past the bound.
    package init(posts: [ListedPost], estimate: Int, hasMore: Bool) {
        self.posts = posts
        total = estimate
        totalIsEstimated = true
        self.hasMore = hasMore
    }

    /// The number of pages the envelope announces: counted from an exact total, else the next page while
    /// one exists (an estimate cannot say where the pages end).
    /// - Parameters:
    ///   - page: this page's number, from 1.
    ///   - perPage: the page size.
    /// - Returns: the `totalPages` of the envelope.
    package func totalPages(page: Int, perPage: Int) -> Int {
        totalIsEstimated ? (hasMore ? page + 1 : page) : (total + perPage - 1) / max(1, perPage)
    }
}
