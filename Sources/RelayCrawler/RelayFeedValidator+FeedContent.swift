import Foundation
import OrgSocial
import OrgSocialClient
package import RelayCore

extension RelayFeedValidator {
    /// Finds the content for `/feed-content/?feed=` (`relay-api.md` §2.16): not found without a profile,
    /// else the feed's file, or why the live fetch failed.
    ///
    /// Unlike the reference, which fetches the feed on every call, the relay serves the file the crawler (or
    /// an earlier call) downloaded when it is younger than ``FeedCrawler/Configuration/feedContentFreshness``.
    /// Otherwise it fetches the feed, but at most once per feed at a time (concurrent calls share the fetch)
    /// and at most once per freshness window (calls in the window get the last result, failure included),
    /// so anonymous callers cannot make the relay fetch a feed more often than the crawler does.
    /// - Parameter feed: the stripped, non-blank feed URL (looked up in its canonical spelling).
    /// - Returns: the content or why there is none.
    package func feedContent(feed: String) async -> FeedContentOutcome {
        let key = FeedURL.normalized(feed)
        let stored: RelayFeedFile?
        do {
            guard try await store.hasProfile(key) else {
                return .notFound
            }
            stored = try await store.feedFile(key)
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return .storageFailed
        }
        let freshness = configuration.feedContentFreshness.seconds
        let content: String
        if let stored, (0..<max(0, freshness)).contains(Date().timeIntervalSince(stored.fetchedAt)) {
            content = stored.content
        } else {
            let outcome = await liveContent.outcome(for: key, freshness: configuration.feedContentFreshness) {
                await fetchContent(key)
            }
            switch outcome {
            case .success(let text): content = text
            case .failure(let failure): return .fetchFailed(failure)
            }
        }
        return .content(content)
    }

    /// Fetches `feed` once (one 10 s timeout, the SSRF guard on every hop) and keeps a good file in the store.
    private func fetchContent(_ feed: String) async -> Result<String, FeedFetchFailure> {
        let generic = FeedFetchFailure.failed
        guard let url = Self.httpURL(feed) else { return .failure(generic) }
        let body: [UInt8]
        do {
            let result = try await liveFetcher.fetch(
                url, validators: nil, checkHop: { [addressGuard] in try await addressGuard.check($0) })
            guard case .fresh(let bytes) = result.outcome else { return .failure(generic) }
            body = bytes
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return .failure(Self.fetchFailure(for: error))
        }
        guard case .success(let text) = RelayFeedText.decode(body) else { return .failure(generic) }
        do {
            try await store.saveFeedFile(feed, content: text, now: Date())
        } catch {
            configuration.log("relay feed-content not saved feed=\(feed) reason=\(Self.describe(error))")
        }
        return .success(text)
    }

    /// Why a live fetch failed, in the reference's terms (the server words its 502 from it).
    static func fetchFailure(for error: any Error) -> FeedFetchFailure {
        switch error {
        case OrgSocialClientError.timedOut:
            return .timedOut
        case OrgSocialClientError.networkError(_, let message) where message.contains("in time"):
            return .timedOut
        case OrgSocialClientError.networkError, RelayCrawlerError.refused, RelayCrawlerError.unresolvableHost:
            return .unreachable
        case OrgSocialClientError.fetchFailed(let url, let statusCode) where statusCode >= 400:
            return .httpError(statusCode: statusCode, url: url)
        default:
            return .failed
        }
    }
}

/// The `/feed-content/` fetches in flight and just failed, by feed: one fetch per feed at a time, and a
/// failed one answers the calls of its freshness window (a successful one saved its file in the store).
actor FeedContentFetches {
    private struct Finished {
        var outcome: Result<String, FeedFetchFailure>
        var at: ContinuousClock.Instant
    }

    private var inFlight: [String: Task<Result<String, FeedFetchFailure>, Never>] = [:]
    private var finished: [String: Finished] = [:]

    /// The outcome of the fetch of `feed` in flight, or of the one that failed less than `freshness` ago,
    /// or of a new fetch made with `fetch`.
    /// - Parameters:
    ///   - feed: the canonical feed URL.
    ///   - freshness: how long a finished fetch answers.
    ///   - fetch: makes the fetch.
    /// - Returns: the content or the failure.
    func outcome(
        for feed: String, freshness: Duration,
        fetch: @escaping @Sendable () async -> Result<String, FeedFetchFailure>
    ) async -> Result<String, FeedFetchFailure> {
        let now = ContinuousClock.now
        finished = finished.filter { now - $0.value.at < freshness }
        if let done = finished[feed] { return done.outcome }
        if let running = inFlight[feed] { return await running.value }
        // Unstructured on purpose: the fetch belongs to every caller that joins it, not to the first one,
        // whose disconnection must not cancel it for the others.
        let task = Task { await fetch() }
        inFlight[feed] = task
        let outcome = await task.value
        inFlight[feed] = nil
        // A success is in the store (the next call finds a fresh file there); only failures are kept here.
        if case .failure = outcome { finished[feed] = Finished(outcome: outcome, at: ContinuousClock.now) }
        return outcome
    }
}
