import Foundation

/// What the HTTP layer needs from storage to answer the read endpoints: typed questions answered with
/// typed rows (`relay-api.md` §2.2, §2.4–2.15, §2.17, §2.18). Both stores implement it; paths,
/// parameters, status codes and the envelope are the server's.
///
/// A method returns `nil` when the feed, post or group it is asked about is not indexed, and throws when
/// storage fails. Lists ordered "newest first" are ordered by the parsed instant, ties by post ID.
package protocol RelayReadModel: Sendable {
    /// Every crawl-list URL in insertion order, bridge virtual feeds left out (`/feeds/`).
    func feeds() async throws -> [String]

    /// The posts mentioning `feed`, newest first; `nil` when `feed` has no profile.
    func mentions(of feed: String) async throws -> [String]?

    /// The mentions, reactions, replies and boosts of `feed` merged newest first (ties in kind order),
    /// restricted to `kinds`; `nil` when `feed` has no profile.
    func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) async throws -> FeedNotifications?

    /// The posts with a mood replying to `feed`'s posts, newest first, poll votes left out; `nil` when
    /// `feed` has no profile.
    func reactions(to feed: String) async throws -> [FeedReaction]?

    /// The replies without a mood (and not poll votes) to `feed`'s posts, newest first; `nil` when `feed`
    /// has no profile.
    func replies(to feed: String) async throws -> [FeedReply]?

    /// The followers of `feed`, feed URL ascending; `nil` when `feed` has no profile.
    func followers(of feed: String) async throws -> [String]?

    /// The posts whose `INCLUDE` is the post `key`, newest first; `nil` when the post is not indexed.
    func boosts(of key: PostKey) async throws -> PostBoosts?

    /// The reactions, replies, boosts and parent chain of the post `key`; `nil` when it is not indexed.
    func interactions(with key: PostKey) async throws -> PostInteractions?

    /// The thread below the post `key`, oldest first at every level; `nil` when it is not indexed.
    func thread(below key: PostKey) async throws -> PostThread?

    /// One page of the posts matching `term`, newest first: none when `page` is past the last page.
    ///
    /// - Throws: ``RelayReadError/searchOverBudget`` when the search needs more than its time or memory.
    func search(_ term: SearchTerm, page: Int, perPage: Int) async throws -> SearchResults

    /// The groups this relay enables, in configuration order.
    func enabledGroups() async -> [ConfiguredGroup]

    /// The messages of the enabled group `slug` as newest-first trees, and its members; `nil` when no
    /// enabled group has that slug.
    func messages(ofGroup slug: String) async throws -> GroupMessages?

    /// Every poll, newest first.
    func polls() async throws -> [String]

    /// The polls of `feed` with their options, newest first; `nil` when `feed` has no profile.
    func polls(of feed: String) async throws -> [FeedPoll]?

    /// The votes `voter` cast, newest vote first; `nil` when `voter` has no profile.
    func votes(castBy voter: String) async throws -> [CastVote]?

    /// The votes of the post `key` per option, newest vote first; `nil` when the post is not indexed.
    func tally(of key: PostKey) async throws -> PollTally?

    /// Monthly counters by UTC month of the post instant, and global totals.
    func stats() async throws -> IndexStats

    /// The newest posts with non-blank content for `/rss.xml`, newest first; `tag` (whole-word match)
    /// wins over `feed` (exact author feed).
    func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem]

    /// One page of the posts with non-blank content that `query` selects, newest first (the mirror API's
    /// `posts/`).
    func posts(_ query: PostListQuery) async throws -> PostListPage

    /// The posts at `urls` (`<feed>#<id>`), whatever their content, in the order asked; URLs of no
    /// indexed post are left out (the mirror API's posts behind the URLs the other questions answer).
    func posts(at urls: [String]) async throws -> [ListedPost]

    /// What the relay holds about `feed`'s author; `nil` when `feed` has no profile.
    func profile(of feed: String) async throws -> FeedProfile?

    /// The current data generation and its time.
    func changeStamp() async throws -> RelayChangeStamp

    /// The feeds changed by the writes after `generation`, up to at least `current` (the generation of a
    /// stamp read just before), so a cache can keep the answers of every other feed.
    func feedChanges(after generation: Int, current: Int) async throws -> RelayFeedChanges

    /// A number that changes whenever any connection, in this process or another, commits to the data
    /// (SQLite's `PRAGMA data_version`), read without waiting for a query in progress and cheap enough to
    /// ask on every request: while it stays the same, the last ``changeStamp()`` still holds. `nil` when
    /// the store cannot tell (an in-memory store) or the read fails.
    func dataVersion() -> Int?
}
