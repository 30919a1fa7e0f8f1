import Synchronization

/// When a store that is loading many posts refreshes the planner's statistics (`ANALYZE`).
///
/// The planner plans from statistics that autovacuum gathers about once a minute; during the first crawl of
/// a new database there are none, and it planned the vote lookups of every feed as sequential scans of
/// `posts` (a tenth of a cold pass). So the store analyzes the tables the indexer reads after its first
/// 1,000 new posts, and again each time it has added as many again as it had at the last analysis (1,000,
/// 2,000, 4,000, …): a few times during a bulk load, and not at all once the load settles.
final class RelayPostgresAnalyzer: Sendable {
    /// The tables the indexer's lookups read.
    static let statement = "ANALYZE posts, post_tags, profiles, mentions, pending_mentions, poll_votes, follows"

    /// Posts added before the first analysis.
    static let firstThreshold = 1_000

    private struct State {
        var added = 0
        var analyzedAt = 0
        var running = false
    }

    private let state = Mutex(State())

    /// Counts `posts` new posts.
    /// - Returns: Whether an analysis should start now (the caller runs ``statement`` and then calls
    ///   ``finished()``).
    func added(_ posts: Int) -> Bool {
        guard posts > 0 else { return false }
        return state.withLock { state in
            state.added += posts
            let due = state.added - state.analyzedAt >= max(Self.firstThreshold, state.analyzedAt)
            guard due, !state.running else { return false }
            state.running = true
            state.analyzedAt = state.added
            return true
        }
    }

    /// Records that the analysis that ``added(_:)`` started has ended.
    func finished() {
        state.withLock { $0.running = false }
    }
}
