import Foundation
public import OrgSocial
import Synchronization

/// The push as a step of a cycle: the feed is read once per cycle (the first account's step reads it, the
/// others reuse it), then each account gets the posts it does not have yet.
public struct PushStep: BridgeStep {
    /// The push's options.
    public var options: PushOptions
    /// Reads the feed as it is now; through a conditional request for a published feed, so an unchanged feed
    /// costs a 304.
    public var readFeed: @Sendable (any BridgeFeed) async throws -> Feed
    /// Called with each account's report (for the command's output).
    public var onReport: (@Sendable (PushReport) -> Void)?
    /// The feed read in the current cycle.
    private let lastRead = CycleFeed()

    /// Makes the step.
    /// - Parameters:
    ///   - options: the push's options.
    ///   - readFeed: reads the feed.
    ///   - onReport: called with each account's report.
    public init(
        options: PushOptions, readFeed: @escaping @Sendable (any BridgeFeed) async throws -> Feed,
        onReport: (@Sendable (PushReport) -> Void)? = nil
    ) {
        self.options = options
        self.readFeed = readFeed
        self.onReport = onReport
    }

    /// `push`.
    public var name: String { "push" }

    /// Pushes the feed's new, changed and removed posts to the account.
    /// - Throws: ``BridgeError/invalidValue(_:)`` when the feed's public URL is unknown (post URLs are made
    ///   from it); what reading the feed or the push throws.
    public func run(_ context: BridgeStepContext) async throws -> RunCounts {
        guard let feedURL = context.feed.publicURL?.absoluteString else {
            throw BridgeError.invalidValue(
                "pushing needs the URL the feed is published at, which post links are made from: give --feed-url, "
                    + "set ORGSOCIAL_FEED_URL, or set feedURL with 'orgsocial config set feedURL URL'")
        }
        let feed = try await feed(for: context)
        var options = options
        options.now = context.now
        let report = try await BridgePusher(state: context.state, client: context.client).push(
            account: context.account, feed: feed, feedURL: feedURL, options: options)
        onReport?(report)
        return report.counts
    }

    /// The feed of this cycle, read at the first account.
    private func feed(for context: BridgeStepContext) async throws -> Feed {
        if let last = lastRead.value.withLock({ $0 }), last.cycle == context.cycle { return last.feed }
        let feed = try await readFeed(context.feed)
        lastRead.value.withLock { $0 = (context.cycle, feed) }
        return feed
    }
}

/// The feed a ``PushStep`` read in its latest cycle, shared by the step's copies.
private final class CycleFeed: Sendable {
    /// The cycle and its feed.
    let value = Mutex<(cycle: UUID, feed: Feed)?>(nil)
}
