public import Foundation
public import OrgSocial

/// A destination that can say, before anything is sent, whether it would take a new post.
public protocol PostChecking: Destination {
    /// Why this destination would not take `post`; empty when it would.
    /// - Parameters:
    ///   - post: the new post, as it will be written in the feed.
    ///   - feedURL: the feed's URL.
    /// - Returns: the problems.
    func problems(with post: Post, feedURL: String) async -> [DestinationProblem]
}

/// A destination a new post can be published to (`orgsocial post --everywhere`, the Acarajé design): it
/// says first whether it takes the post, then publishes it. Adding a platform is one conforming type.
public protocol PostingDestination: PostChecking {
    /// Publishes `post`, a post of `feed`.
    /// - Parameters:
    ///   - post: the post.
    ///   - feed: the feed as written, with the post in it.
    ///   - feedURL: the feed's URL.
    /// - Returns: where it went: status IDs, or the post's URL.
    /// - Throws: whatever stopped it.
    func publish(_ post: Post, in feed: Feed, feedURL: String) async throws -> [String]
}

/// How one destination fared.
public struct DestinationOutcome: Sendable, Hashable, Codable {
    /// The destination's name.
    public var destination: String
    /// Whether the post went there.
    public var ok: Bool
    /// Where it went (status IDs, the post's URL).
    public var published: [String]
    /// Why it did not, or `nil`.
    public var error: String?

    /// Makes an outcome.
    /// - Parameters:
    ///   - destination: the destination's name.
    ///   - ok: whether it was published.
    ///   - published: where it went.
    ///   - error: why not.
    public init(destination: String, ok: Bool, published: [String] = [], error: String? = nil) {
        self.destination = destination
        self.ok = ok
        self.published = published
        self.error = error
    }
}

/// Posts one new post everywhere: checks it against every destination before anything is sent, writes
/// it to the feed (whose post ID keys every mapping), then publishes it to the other destinations at the
/// same time, each on its own (one failing does not stop the others).
public struct PostEverywhere: Sendable {
    /// The feed, written first (by the caller, see ``publish(feedURL:writeFeed:)``).
    public var feed: any PostChecking
    /// The accounts and any other destination.
    public var others: [any PostingDestination]

    /// Makes a coordinator.
    /// - Parameters:
    ///   - feed: the feed destination.
    ///   - others: the other destinations.
    public init(feed: any PostChecking, others: [any PostingDestination]) {
        self.feed = feed
        self.others = others
    }

    /// The problems of every destination with `post`, by destination name; empty when all take it.
    /// - Parameters:
    ///   - post: the post as it will be written.
    ///   - feedURL: the feed's URL.
    /// - Returns: the problems of the destinations that have some.
    public func problems(with post: Post, feedURL: String) async -> [(String, [DestinationProblem])] {
        var result: [(String, [DestinationProblem])] = []
        for destination in [feed] + others.map({ $0 as any PostChecking }) {
            let problems = await destination.problems(with: post, feedURL: feedURL)
            if !problems.isEmpty { result.append((destination.name, problems)) }
        }
        return result
    }

    /// Publishes: the feed through `writeFeed` (which returns the post and the feed as written), then
    /// every other destination concurrently.
    /// - Parameters:
    ///   - feedURL: the feed's URL.
    ///   - writeFeed: writes the post into the feed.
    /// - Returns: the outcomes, the feed's first, then the others in their order.
    public func publish(feedURL: String, writeFeed: () async throws -> (Post, Feed)) async -> [DestinationOutcome] {
        let written: (Post, Feed)
        do {
            written = try await writeFeed()
        } catch {
            let reason = Self.describe(error)
            return [DestinationOutcome(destination: feed.name, ok: false, error: reason)]
                + others.map {
                    DestinationOutcome(
                        destination: $0.name, ok: false, error: "not posted: the feed could not be written first")
                }
        }
        let (post, postedFeed) = written
        let feedOutcome = DestinationOutcome(
            destination: feed.name, ok: true, published: [post.url(in: feedURL) ?? post.id ?? ""])
        let outcomes = await withTaskGroup(of: (Int, DestinationOutcome).self) { group in
            for (index, destination) in others.enumerated() {
                group.addTask {
                    do {
                        let published = try await destination.publish(post, in: postedFeed, feedURL: feedURL)
                        return (
                            index, DestinationOutcome(destination: destination.name, ok: true, published: published)
                        )
                    } catch {
                        return (
                            index,
                            DestinationOutcome(destination: destination.name, ok: false, error: Self.describe(error))
                        )
                    }
                }
            }
            var collected: [(Int, DestinationOutcome)] = []
            for await outcome in group { collected.append(outcome) }
            return collected.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return [feedOutcome] + outcomes
    }

    /// An error's description.
    static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? "\(error)"
    }
}

/// The feed as a destination to check a new post against: any length, polls of at least two options
/// that end in the future (``FeedDestination``).
public struct FeedPostChecking: PostChecking {
    /// The feed's limits.
    public var feed: FeedDestination
    /// The current time.
    public var now: @Sendable () -> Date

    /// Makes the check for the feed at `feedURL`.
    /// - Parameters:
    ///   - feedURL: the feed's URL.
    ///   - now: the clock.
    public init(feedURL: String, now: @escaping @Sendable () -> Date = { Date() }) {
        feed = FeedDestination(feedURL: feedURL)
        self.now = now
    }

    /// The feed's URL.
    public var name: String { feed.name }

    /// An empty post, or a poll that is not one.
    /// - Parameters:
    ///   - post: the post.
    ///   - feedURL: the feed's URL.
    /// - Returns: the problems.
    public func problems(with post: Post, feedURL: String) async -> [DestinationProblem] {
        var problems: [DestinationProblem] = []
        if post.kind != .boost, post.kind != .reaction { problems += feed.validateText(post.body) }
        if post.kind == .poll {
            let seconds = Int((post.pollEnd?.instant ?? now()).timeIntervalSince(now()))
            problems += feed.validatePoll(options: post.pollOptions, duration: seconds)
        }
        return problems
    }
}
