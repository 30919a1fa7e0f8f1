import RelayCore
import RelayTestFixtures

/// The store's tests' fixture database.
typealias RelayStoreHarness = RelayFixtureDatabase

extension RelayFixtureDatabase {
    /// The key of a post URL `feed#id` (split at the first `#`, as the API splits its `post` parameter).
    static func key(_ post: String) -> PostKey {
        let parts = post.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        return PostKey(feed: String(parts[0]), postID: parts.count > 1 ? String(parts[1]) : "")
    }

    /// The number of votes of a tally (`/polls/votes/`'s `total_votes`).
    static func totalVotes(_ tally: PollTally) -> Int {
        tally.options.reduce(0) { $0 + $1.votes.count }
    }

    /// Every post of group trees, depth first.
    static func posts(in threads: [GroupThread]) -> [String] {
        threads.flatMap { [$0.post] + posts(in: $0.replies) }
    }
}
