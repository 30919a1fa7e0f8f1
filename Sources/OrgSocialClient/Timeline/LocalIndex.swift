public import Foundation
import OrgSocial

/// Social computations over feeds already fetched, without a relay: threads, notifications and poll
/// results (`org-social-spec.md` §7). Pure: build it from ``Timeline/feeds`` and ask it questions.
///
/// ```swift
/// let index = LocalIndex(feeds: timeline.feeds)
/// let thread = index.thread(for: "https://example.org/social.org#2026-01-01T10:00:00+0100")
/// let results = index.pollResults(for: pollURL)
/// ```
///
/// References (`<feed URL>#<ID>`) match by their exact ID and their feed URL in any spelling of it
/// (`PostReference.normalized`): `HTTP://HOST/social.org#ID` and `http://host/social.org#ID` are one post,
/// and a feed is one feed however it was followed.
public struct LocalIndex: Sendable {
    /// Every post with a valid ID, in feed order.
    public let entries: [TimelinePost]
    /// The posts by their normalized URL.
    private let byURL: [String: TimelinePost]

    /// Indexes feeds.
    /// - Parameter feeds: the feeds; a feed listed twice (in any spelling of its URL) counts once.
    public init(feeds: [FetchedFeed]) {
        var seen: Set<String> = []
        var entries: [TimelinePost] = []
        for fetched in feeds where seen.insert(FeedURL.normalized(fetched.url)).inserted {
            entries += fetched.entries
        }
        self.entries = entries
        byURL = Dictionary(entries.map { (Self.key($0.url), $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The post at `url`, if it was fetched.
    /// - Parameter url: `<feed URL>#<ID>`, the feed URL in any spelling.
    /// - Returns: The post, or `nil`.
    public func post(at url: String) -> TimelinePost? { byURL[Self.key(url)] }

    /// The key posts are indexed and compared by: the post URL, its feed URL normalized.
    private static func key(_ postURL: String) -> String { PostReference.normalizedText(postURL) }

    // MARK: - Threads

    /// A post and its replies, recursively.
    public struct ThreadNode: Sendable {
        /// The post.
        public let entry: TimelinePost
        /// Its direct replies, oldest first (reactions and votes excluded).
        public let replies: [ThreadNode]
    }

    /// The thread under the post at `url`: the post and every reply to it, recursively, oldest first.
    /// - Parameter url: the post's `<feed URL>#<ID>`.
    /// - Returns: the tree, or `nil` when the post was not fetched.
    public func thread(for url: String) -> ThreadNode? {
        guard let root = post(at: url) else { return nil }
        var children: [String: [TimelinePost]] = [:]
        for entry in entries where entry.post.kind == .reply || entry.post.kind == .poll {
            if let parent = entry.post.replyTo?.normalized.description { children[parent, default: []].append(entry) }
        }
        var visited: Set<String> = []
        func node(_ entry: TimelinePost) -> ThreadNode {
            let key = Self.key(entry.url)
            visited.insert(key)
            let replies = (children[key] ?? []).filter { !visited.contains(Self.key($0.url)) }
                .sorted { $0.instant < $1.instant }
            return ThreadNode(entry: entry, replies: replies.map(node))
        }
        return node(root)
    }

    /// The posts `url` replies to, nearest first, as far as they were fetched.
    /// - Parameter url: the post's `<feed URL>#<ID>`.
    /// - Returns: The ancestors, nearest first.
    public func parentChain(of url: String) -> [TimelinePost] {
        var chain: [TimelinePost] = []
        var current = post(at: url)?.post.replyTo?.description
        while let parentURL = current, let parent = post(at: parentURL),
            !chain.contains(where: { Self.key($0.url) == Self.key(parentURL) })
        {
            chain.append(parent)
            current = parent.post.replyTo?.description
        }
        return chain
    }

    // MARK: - Notifications

    /// A notification for the reader.
    public struct Notification: Sendable {
        /// What happened.
        public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
            /// Someone mentioned the reader.
            case mention
            /// Someone replied to one of the reader's posts.
            case reply
            /// Someone reacted to one of the reader's posts.
            case reaction
            /// Someone boosted one of the reader's posts.
            case boost
            /// Someone voted in one of the reader's polls.
            case vote
        }

        /// What happened.
        public let kind: Kind
        /// The post that did it.
        public let entry: TimelinePost
        /// The reader's post it concerns (`nil` for a mention).
        public let target: String?
    }

    /// The notifications for the owner of `userFeedURL`, newest first: mentions, replies, reactions,
    /// boosts and votes on their posts by other feeds, counted as the relay counts them (relay-api.md §3):
    /// a post is a mention when its body links the reader with a description (`[[org-social:URL][name]]`,
    /// the URL cut at `#`), whatever else it is, so a reply that mentions the reader gives a mention and a
    /// reply; otherwise one notification per post.
    /// - Parameters:
    ///   - userFeedURL: the reader's feed URL.
    ///   - now: posts dated after this (scheduled) are left out; `nil` keeps them.
    /// - Returns: The notifications, newest first.
    public func notifications(for userFeedURL: String, now: Date? = nil) -> [Notification] {
        var found: [Notification] = []
        let user = FeedURL.normalized(userFeedURL)
        let isUser = { (feedURL: String) in feedURL == userFeedURL || FeedURL.normalized(feedURL) == user }
        for entry in entries where !isUser(entry.author.feedURL) {
            if let now, TimelineFilter.isScheduled(entry.instant, now: now) { continue }
            let post = entry.post
            let replyTarget = post.replyTo.flatMap { isUser($0.feedURL) ? $0.description : nil }
            let boostTarget = post.include.flatMap { isUser($0.feedURL) ? $0.description : nil }
            // A mention counts whatever else the post is, a reply included, as the relay counts it (first,
            // as the relay orders one post's notifications).
            if post.mentions.contains(where: { $0.notifiedFeedURL.map(isUser) ?? false }) {
                found.append(Notification(kind: .mention, entry: entry, target: nil))
            }
            switch post.kind {
            case .reaction where replyTarget != nil:
                found.append(Notification(kind: .reaction, entry: entry, target: replyTarget))
            case .vote where replyTarget != nil:
                found.append(Notification(kind: .vote, entry: entry, target: replyTarget))
            case .boost where boostTarget != nil, .quoteBoost where boostTarget != nil:
                found.append(Notification(kind: .boost, entry: entry, target: boostTarget))
            case _ where replyTarget != nil && post.kind != .reaction && post.kind != .vote:
                found.append(Notification(kind: .reply, entry: entry, target: replyTarget))
            default:
                break
            }
        }
        return found.enumerated().sorted { lhs, rhs in
            lhs.element.entry.instant != rhs.element.entry.instant
                ? lhs.element.entry.instant > rhs.element.entry.instant : lhs.offset < rhs.offset
        }.map(\.element)
    }

    // MARK: - Polls

    /// The tally of a poll.
    public struct PollResults: Sendable {
        /// The poll.
        public let poll: TimelinePost
        /// Each option with its votes, in the poll's order.
        public let counts: [(option: String, votes: Int)]
        /// The vote counted for each voter feed (by its canonical URL).
        public let votes: [String: String]
        /// When voting closes (`POLL_END`), if readable.
        public let closesAt: Date?

        /// How many votes were counted.
        public var totalVotes: Int { votes.count }

        /// Each option's share of the votes, in the order of ``counts``, as whole percentages that add up
        /// to 100; all zero when no vote was counted.
        public var percentages: [Int] { Self.percentages(of: counts.map(\.votes)) }

        /// Whole percentages of `counts` that add up to 100 (largest-remainder rounding: each gets its share
        /// rounded down, and the points left go to the largest fractions, earlier options first on ties);
        /// all zero when there are no votes.
        /// - Parameter counts: the votes of each option.
        /// - Returns: One percentage per option.
        static func percentages(of counts: [Int]) -> [Int] {
            let total = counts.reduce(0, +)
            guard total > 0 else { return counts.map { _ in 0 } }
            var shares = counts.map { $0 * 100 / total }
            let remainders = counts.map { $0 * 100 % total }
            let order = counts.indices.sorted {
                remainders[$0] != remainders[$1] ? remainders[$0] > remainders[$1] : $0 < $1
            }
            for index in order.prefix(100 - shares.reduce(0, +)) { shares[index] += 1 }
            return shares
        }
    }

    /// Counts the votes on the poll at `url`: one vote per voter feed, the latest valid vote wins; votes
    /// after `POLL_END`, without a valid ID, or for an option the poll does not have are ignored.
    /// - Parameter url: the poll's `<feed URL>#<ID>`.
    /// - Returns: the results, or `nil` when the post was not fetched or is not a poll.
    public func pollResults(for url: String) -> PollResults? {
        guard let poll = post(at: url), poll.post.kind == .poll else { return nil }
        let options = poll.post.pollOptions
        let closesAt = poll.post.pollEnd?.instant
        let pollKey = Self.key(url)
        var latest: [String: (instant: Date, option: String)] = [:]
        for entry in entries where entry.post.kind == .vote && entry.post.replyTo?.normalized.description == pollKey {
            guard let option = entry.post.pollOption?.trimmingCharacters(in: .whitespaces),
                options.contains(option)
            else { continue }
            if let closesAt, entry.instant > closesAt { continue }
            let voter = FeedURL.normalized(entry.author.feedURL)
            if let previous = latest[voter], previous.instant > entry.instant { continue }
            latest[voter] = (entry.instant, option)
        }
        let votes = latest.mapValues(\.option)
        let counts = options.map { option in (option, votes.values.filter { $0 == option }.count) }
        return PollResults(poll: poll, counts: counts, votes: votes, closesAt: closesAt)
    }
}

extension LocalIndex.ThreadNode {
    /// The tree without the replies from blocked feeds (``TimelineOptions/blocks(postURL:)``), each with
    /// the replies below it.
    /// - Parameter options: the options whose block list applies.
    /// - Returns: The tree, pruned.
    public func removingReplies(blockedBy options: TimelineOptions) -> LocalIndex.ThreadNode {
        LocalIndex.ThreadNode(
            entry: entry,
            replies: replies.filter { !options.blocks(postURL: $0.entry.url) }.map {
                $0.removingReplies(blockedBy: options)
            })
    }
}
