import Foundation
import RelayCore
import RelayStore
import Synchronization
import TestSupport

/// The real store behind a read model that counts `mentions(of:)` calls and holds each one at a gate
/// until the test opens it, so a test can line up concurrent requests on one uncached answer.
final class CountingReadModel: RelayReadModel {
    /// The store every call goes to.
    let store: any RelayReadModel
    /// How many `mentions(of:)` calls began.
    let mentionsCalls = Counter()
    private let gate = Mutex(Gate())

    /// Wraps `store`.
    init(store: any RelayReadModel) {
        self.store = store
    }

    /// A new closed gate that the `mentions(of:)` calls from now on wait for.
    func hold() -> Gate {
        let next = Gate()
        gate.withLock { $0 = next }
        return next
    }

    /// Counts the call, waits for the current gate, then asks the store.
    func mentions(of feed: String) async throws -> [String]? {
        mentionsCalls.increment()
        await gate.withLock { $0 }.wait()
        return try await store.mentions(of: feed)
    }

    /// The store's answer.
    func feeds() async throws -> [String] { try await store.feeds() }
    /// The store's answer.
    func posts(_ query: PostListQuery) async throws -> PostListPage { try await store.posts(query) }
    /// The store's answer.
    func posts(at urls: [String]) async throws -> [ListedPost] { try await store.posts(at: urls) }
    /// The store's answer.
    func profile(of feed: String) async throws -> FeedProfile? { try await store.profile(of: feed) }
    /// The store's answer.
    func feedChanges(after generation: Int, current: Int) async throws -> RelayFeedChanges {
        try await store.feedChanges(after: generation, current: current)
    }
    /// The store's answer.
    func notifications(of feed: String, kinds: Set<InteractionNotice.Kind>) async throws -> FeedNotifications? {
        try await store.notifications(of: feed, kinds: kinds)
    }
    /// The store's answer.
    func reactions(to feed: String) async throws -> [FeedReaction]? { try await store.reactions(to: feed) }
    /// The store's answer.
    func replies(to feed: String) async throws -> [FeedReply]? { try await store.replies(to: feed) }
    /// The store's answer.
    func followers(of feed: String) async throws -> [String]? { try await store.followers(of: feed) }
    /// The store's answer.
    func boosts(of key: PostKey) async throws -> PostBoosts? { try await store.boosts(of: key) }
    /// The store's answer.
    func interactions(with key: PostKey) async throws -> PostInteractions? { try await store.interactions(with: key) }
    /// The store's answer.
    func thread(below key: PostKey) async throws -> PostThread? { try await store.thread(below: key) }
    /// The store's answer.
    func search(_ term: SearchTerm, page: Int, perPage: Int) async throws -> SearchResults {
        try await store.search(term, page: page, perPage: perPage)
    }
    /// The store's answer.
    func enabledGroups() async -> [ConfiguredGroup] { await store.enabledGroups() }
    /// The store's answer.
    func messages(ofGroup slug: String) async throws -> GroupMessages? { try await store.messages(ofGroup: slug) }
    /// The store's answer.
    func polls() async throws -> [String] { try await store.polls() }
    /// The store's answer.
    func polls(of feed: String) async throws -> [FeedPoll]? { try await store.polls(of: feed) }
    /// The store's answer.
    func votes(castBy voter: String) async throws -> [CastVote]? { try await store.votes(castBy: voter) }
    /// The store's answer.
    func tally(of key: PostKey) async throws -> PollTally? { try await store.tally(of: key) }
    /// The store's answer.
    func stats() async throws -> IndexStats { try await store.stats() }
    /// The store's answer.
    func rssItems(tag: String?, feed: String?, limit: Int) async throws -> [RelayRSSItem] {
        try await store.rssItems(tag: tag, feed: feed, limit: limit)
    }
    /// The store's answer.
    func changeStamp() async throws -> RelayChangeStamp { try await store.changeStamp() }
    /// The store's answer.
    func dataVersion() -> Int? { store.dataVersion() }
}
