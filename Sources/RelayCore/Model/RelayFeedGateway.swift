/// The two endpoints that reach out to a feed's server while answering a request: registration
/// (`POST /feeds/`, `relay-api.md` §2.3) and `/feed-content/` (§2.16). The crawler module implements it
/// (validation fetch, SSRF guard); the HTTP layer parses the request, calls it and writes the answer.
package protocol RelayFeedGateway: Sendable {
    /// Registers a feed: `feed` is the submitted value, already stripped and non-blank. Does §2.3 steps 2–5
    /// (bridge marker, known, validation fetch, added), plus the SSRF refusal.
    func register(feed: String) async -> FeedRegistrationOutcome

    /// The mirror API's `webhook/refresh/`: registers `feed` as ``register(feed:)`` does and, for a relay
    /// that crawls, reads it again soon even when it was known (its owner says it changed).
    func refresh(feed: String) async -> FeedRegistrationOutcome

    /// The content of `feed` for `/feed-content/?feed=` (a stripped, non-blank `feed`): the stored file when
    /// fresh, else a live fetch.
    func feedContent(feed: String) async -> FeedContentOutcome
}

extension RelayFeedGateway {
    /// A gateway that does not crawl registers the feed only; the next pass reads it.
    package func refresh(feed: String) async -> FeedRegistrationOutcome {
        await register(feed: feed)
    }
}

/// What registering a feed did (`relay-api.md` §2.3).
package enum FeedRegistrationOutcome: Sendable, Hashable {
    /// The feed was already in the crawl list, in this canonical spelling.
    case known(feed: String)
    /// The feed was added, in this canonical spelling.
    case added(feed: String)
    /// A bridge virtual feed, which cannot be registered.
    case bridge
    /// The feed is not a valid Org Social feed; the reason follows `Invalid Org Social feed: `.
    case invalid(reason: String)
    /// The crawl list could not be read or written.
    case storageFailed
}

/// What `/feed-content/` found (`relay-api.md` §2.16).
package enum FeedContentOutcome: Sendable, Hashable {
    /// The feed's file.
    case content(String)
    /// The feed has no profile in the relay.
    case notFound
    /// The store could not be read.
    case storageFailed
    /// The live fetch failed.
    case fetchFailed(FeedFetchFailure)
}

/// Why a live fetch of a feed failed, as the reference tells its callers (§2.16's 502 messages).
package enum FeedFetchFailure: Error, Sendable, Hashable {
    /// The feed server did not answer in time.
    case timedOut
    /// The feed server could not be reached (or the SSRF guard refused it).
    case unreachable
    /// The feed server answered with an error status (400 or more).
    case httpError(statusCode: Int, url: String)
    /// Any other failure.
    case failed
}
