/// What a search looks for (`/search/`).
package enum SearchTerm: Sendable, Hashable {
    /// Posts whose case-folded content or tags contain the text.
    case text(String)
    /// Posts whose `TAGS` holds the tag as whole words, case-insensitively.
    case tag(String)
}

/// One page of a search and the number of matches.
package struct SearchResults: Sendable, Hashable {
    /// How many posts match in all.
    package var total: Int
    /// The page's posts, newest first.
    package var posts: [String]

    /// Makes a page.
    package init(total: Int, posts: [String]) {
        self.total = total
        self.posts = posts
    }
}
