/// Which served data one write changed, recorded with its generation so that a cache can drop only the
/// answers that depend on it: the answers of some feeds, or everything.
package enum RelayChangeScope: Sendable, Hashable {
    /// Any answer may have changed (a registration, a removal, a renamed feed, a changed profile).
    case everything
    /// Only the global answers (feed list, statistics, search, groups, threads) and the answers keyed by
    /// these feeds: the indexed feed and every feed its changed posts point at, before and after the
    /// change (mentioned feeds, the feeds of replied-to, reacted-to, voted-on and boosted posts).
    case feeds(Set<String>)
}

/// The feeds changed by the writes after some generation, each with the last generation that changed it.
package struct RelayFeedChanges: Sendable, Hashable {
    /// The generation the changes were asked after.
    package var after: Int
    /// The newest generation recorded among them (`after` when there were none).
    package var through: Int
    /// The last generation that changed everything, if one did; also set when the record of some
    /// generation is missing (pruned, or written before changes were recorded), so nothing stale survives.
    package var everything: Int?
    /// Each changed feed and the last generation that changed it.
    package var feeds: [String: Int]

    /// Reads the record: `(generation, feed)` rows after `after`, where the feed `""` means everything.
    ///
    /// Every write records at least one row, so a generation after `after` with no row (up to `current`)
    /// was pruned or predates the record: then everything counts as changed at `current`.
    /// - Parameters:
    ///   - rows: the rows after `after`, in any order.
    ///   - after: the generation asked after.
    ///   - current: the generation of the stamp read before the rows.
    package init(rows: [(generation: Int, feed: String)], after: Int, current: Int) {
        self.after = after
        var through = after
        var everything: Int?
        var feeds: [String: Int] = [:]
        var generations = Set<Int>()
        for (generation, feed) in rows {
            generations.insert(generation)
            through = max(through, generation)
            if feed == RelayFeedChanges.everythingMarker {
                everything = max(everything ?? generation, generation)
            } else {
                feeds[feed] = max(feeds[feed] ?? generation, generation)
            }
        }
        if current > after, (after + 1...current).contains(where: { !generations.contains($0) }) {
            everything = max(everything ?? current, current)
            through = max(through, current)
        }
        self.through = through
        self.everything = everything
        self.feeds = feeds
    }

    /// The feed value of a row that changed everything.
    package static let everythingMarker = ""

    /// The most generations a reader asks the record for at once; further behind, it treats everything as
    /// changed instead of reading the rows.
    package static let readLimit = 2048

    /// How many generations of rows are kept; older ones are pruned.
    package static let kept = 4096
}
