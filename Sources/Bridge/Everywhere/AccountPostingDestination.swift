public import Foundation
public import OrgSocial
import OrgSocialText
public import TootClient

/// A bridge account as a ``PostingDestination``: the post is checked as a push would send it (its parts,
/// its poll, the platform's needs) and published by ``BridgePusher`` restricted to it, so the mapping is
/// recorded and a later push creates nothing new.
public struct AccountPostingDestination: PostingDestination, TextDestination, ThreadDestination {
    /// The account.
    public var account: BridgeAccount
    /// The account's client (token and server profile set).
    public var client: TootClient
    /// The state file.
    public var state: BridgeState
    /// The current time.
    public var now: @Sendable () -> Date
    /// The most statuses the post may become.
    public var maxThreadLength: Int

    /// Makes the destination.
    /// - Parameters:
    ///   - account: the account.
    ///   - client: its client.
    ///   - state: the state file.
    ///   - maxThreadLength: the most statuses a post may become; 10 by default.
    ///   - now: the clock.
    public init(
        account: BridgeAccount, client: TootClient, state: BridgeState, maxThreadLength: Int = 10,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.account = account
        self.client = client
        self.state = state
        self.maxThreadLength = maxThreadLength
        self.now = now
    }

    /// The account's name.
    public var name: String { account.name }

    /// The server's limit per status (a longer post becomes a thread).
    public var maxTextLength: Int { account.server.limits.maxCharacters }

    /// The length as the server counts it.
    /// - Parameter text: the text.
    /// - Returns: its length.
    public func textLength(_ text: String) -> Int {
        MastodonTextLimits(
            maxCharacters: account.server.limits.maxCharacters,
            charactersPerURL: account.server.limits.charactersPerURL
        ).count(text)
    }

    /// The post's problems here: a thread too long, a poll the server cannot take, a post the platform
    /// refuses (Pixelfed's text-only posts), or one a push would leave out.
    /// - Parameters:
    ///   - post: the post.
    ///   - feedURL: the feed's URL.
    /// - Returns: the problems.
    public func problems(with post: Post, feedURL: String) async -> [DestinationProblem] {
        let mappings = (try? await state.mappings(feed: feedURL, account: account.name)) ?? []
        let byPost = Dictionary(mappings.map { ($0.postID, $0.parts.map(\.statusID)) }) { first, _ in first }
        let planner = PushPlanner(
            feedURL: feedURL, server: account.server, options: PushOptions(mirrorsMentionOnlyPosts: true, now: now))
        switch planner.decide(post, statusIDs: { byPost[$0] }) {
        case .skip(_, let reason): return [.refused("it would not be posted: \(reason)")]
        case .reblog, .favourite: return []
        case .statuses(let plan):
            var problems = validateThread(count: plan.parts.count)
            if post.kind == .poll, plan.poll == nil {
                let seconds = Int((post.pollEnd?.instant ?? now()).timeIntervalSince(now()))
                let poll = MastodonDestination(account: account) { textLength($0) }
                problems += poll.validatePoll(options: post.pollOptions, duration: seconds)
            }
            if plan.images.isEmpty, !account.server.platform.supports(.textOnlyPosts) {
                problems.append(.refused("\(account.server.platform.name) takes only posts with an image"))
            }
            return problems
        }
    }

    /// Pushes the post alone.
    /// - Parameters:
    ///   - post: the post.
    ///   - feed: the feed with it.
    ///   - feedURL: the feed's URL.
    /// - Returns: the statuses it became.
    /// - Throws: ``BridgeError/invalidValue(_:)`` with the server's reason when it was refused; a
    ///   `TootClientError` that stopped it.
    public func publish(_ post: Post, in feed: Feed, feedURL: String) async throws -> [String] {
        guard let id = post.id else { throw BridgeError.invalidValue("the post has no ID") }
        var options = PushOptions(all: true, mirrorsMentionOnlyPosts: true, now: now)
        options.onlyPostIDs = [id]
        let report = try await BridgePusher(state: state, client: client).push(
            account: account, feed: feed, feedURL: feedURL, options: options)
        guard let entry = report.entries.first(where: { $0.postID == id }) else {
            throw BridgeError.invalidValue("post \(id) was not sent (it is older than the account?)")
        }
        switch entry.action {
        case .skip, .fail: throw BridgeError.invalidValue(entry.reason ?? "the server refused post \(id)")
        default: return entry.statusIDs
        }
    }
}
