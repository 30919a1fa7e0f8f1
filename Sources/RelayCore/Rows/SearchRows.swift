/// What a search looks for (`/search/`).
package enum SearchTerm: Sendable, Hashable {
    /// Posts whose case-folded content or tags contain the text.
    case text(String)
    /// Posts whose `TAGS` holds the tag as whole words, case-insensitively.
    case tag(String)
}

/// One page of a search and the number of matches: exact up to ``exactTotalBound`` matches, an estimate
/// beyond it (counting a term most of ten million posts hold would cost more than the whole request).
package struct SearchResults: Sendable, Hashable {
    /// The most matches a search counts exactly.
    package static let exactTotalBound = 10_000

    /// How many posts match in all; an estimate when ``totalIsEstimated``.
    package var total: Int
    /// The page's posts, newest first.
    package var posts: [String]
    /// Whether ``total`` is an estimate (more than ``exactTotalBound`` posts match).
    package var totalIsEstimated: Bool
    /// Whether a later page has posts, when ``totalIsEstimated`` (an exact total tells it by itself).
    package var hasMore: Bool

    /// A page with the exact total.
    package init(total: Int, posts: [String]) {
        self.total = total
        self.posts = posts
        self.totalIsEstimated = false
        self.hasMore = false
    }

    /// How many of the newest posts an estimated total is sampled from.
    package static let estimateSample = 10_000

    /// The estimated number of matches when more than ``exactTotalBound`` match: the share of the newest
    /// ``estimateSample`` posts (or all, when fewer) that match, scaled to all of them.
    ///
    /// - Parameters:
    ///   - sampled: how many of the sampled posts match.
    ///   - posts: how many posts there are (the highest row id, an upper bound).
    ///   - upperBound: at most this many match, from the index's statistics.
    /// - Returns: the estimate, more than ``exactTotalBound`` and at most `posts` and `upperBound`.
    package static func estimatedTotal(sampled: Int, posts: Int, upperBound: Int = .max) -> Int {
        let sample = max(1, min(posts, estimateSample))
        let scaled = (Double(sampled) * Double(posts) / Double(sample)).rounded()
        let estimate = scaled < Double(Int.max) ? Int(scaled) : .max
        return max(exactTotalBound + 1, min(upperBound, posts, estimate))
    }

    /// A page of a search matching more than ``exactTotalBound`` posts, from up to `perPage + 1` `rows` read
    /// from the page's first row on: the extra row says a later page exists. A short page is the last one,
    /// so its total is exact; `nil` for no row at all (a page past the end, whose error needs the exact
    /// total).
    ///
    /// - Parameters:
    ///   - estimate: the estimated number of matches; the total is never less than the rows seen nor than
    ///     ``exactTotalBound`` + 1.
    ///   - page: the page number, from 1.
    ///   - perPage: the page size.
    ///   - rows: the rows read from the page's first one on, at most `perPage + 1`.
    /// - Returns: the page, or `nil` without rows.
    package static func beyondBound(estimate: Int, page: Int, perPage: Int, rows: [String]) -> SearchResults? {
        guard !rows.isEmpty else { return nil }
        let before = (page - 1) * perPage
        guard rows.count > perPage else {
            return SearchResults(total: before + rows.count, posts: rows)
        }
        var results = SearchResults(
            total: max(estimate, before + rows.count, exactTotalBound + 1), posts: Array(rows.prefix(perPage)))
        results.totalIsEstimated = true
        results.hasMore = true
        return results
    }
}
