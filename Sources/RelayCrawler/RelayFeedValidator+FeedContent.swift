import Foundation
import HTTPServer
import OrgSocialClient
package import RelayCore

extension RelayFeedValidator {
    /// Answers `/feed-content/?feed=` (`relay-api.md` §2.16): 404 without a profile, else the feed's file as
    /// `data.content`, or a 502 with the reference's messages.
    ///
    /// Unlike the reference, which fetches the feed on every call, the relay serves the file the crawler (or
    /// an earlier call) downloaded when it is younger than ``FeedCrawler/Configuration/feedContentFreshness``.
    /// Otherwise it fetches the feed, but at most once per feed at a time (concurrent calls share the fetch)
    /// and at most once per freshness window (calls in the window get the last result, failure included),
    /// so anonymous callers cannot make the relay fetch a feed more often than the crawler does.
    /// - Parameter feed: the stripped, non-blank feed URL (looked up in its canonical spelling).
    /// - Returns: the reply.
    package func feedContent(feed: String) async -> RelayJSONReply {
        let key = RelayFeedText.canonicalURL(feed)
        let stored: RelayFeedFile?
        do {
            guard try await store.hasProfile(key) else {
                return RelayReplies.error("Feed not found in relay", status: .notFound)
            }
            stored = try await store.feedFile(key)
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return RelayReplies.error("Failed to fetch feed content", status: .internalServerError)
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
            case .failure(let failure): return RelayReplies.error(failure.message, status: .badGateway)
            }
        }
        let link: JSONValue = .object([
            ("href", .string("/feed-content/?feed=\(RelayPercentEncoding.encode(feed))")), ("method", "GET"),
        ])
        return RelayReplies.success(.object([("content", .string(content))]), links: .object([("self", link)]))
    }

    /// Fetches `feed` once (one 10 s timeout, the SSRF guard on every hop) and keeps a good file in the store.
    private func fetchContent(_ feed: String) async -> Result<String, FeedContentFailure> {
        let generic = FeedContentFailure(message: "Failed to fetch feed content")
        guard let url = Self.httpURL(feed) else { return .failure(generic) }
        let body: [UInt8]
        do {
            let result = try await liveFetcher.fetch(
                url, validators: nil, checkHop: { [addressGuard] in try await addressGuard.check($0) })
            guard case .fresh(let bytes) = result.outcome else { return .failure(generic) }
            body = bytes
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return .failure(FeedContentFailure(message: Self.feedContentMessage(for: error)))
        }
        guard case .success(let text) = RelayFeedText.decode(body) else { return .failure(generic) }
        do {
            try await store.saveFeedFile(feed, content: text, now: Date())
        } catch {
            configuration.log("relay feed-content not saved feed=\(feed) reason=\(Self.describe(error))")
        }
        return .success(text)
    }

    /// The reference's 502 message for a failed live fetch.
    static func feedContentMessage(for error: any Error) -> String {
        switch error {
        case OrgSocialClientError.timedOut:
            return "Request timeout: Feed server did not respond in time"
        case OrgSocialClientError.networkError(_, let message) where message.contains("in time"):
            return "Request timeout: Feed server did not respond in time"
        case OrgSocialClientError.networkError, RelayCrawlerError.refused, RelayCrawlerError.unresolvableHost:
            return "Connection error: Could not reach feed server"
        case OrgSocialClientError.fetchFailed(let url, let statusCode) where statusCode >= 400:
            let kind = statusCode < 500 ? "Client" : "Server"
            let reason = HTTPStatus(code: statusCode).reasonPhrase
            return "HTTP error: \(statusCode) \(kind) Error: \(reason) for url: \(url)"
        default:
            return "Failed to fetch feed content"
        }
    }
}

/// A failed `/feed-content/` fetch, with the reference's 502 message.
struct FeedContentFailure: Error, Sendable, Hashable {
    /// The envelope's error string.
    var message: String
}

/// The `/feed-content/` fetches in flight and just failed, by feed: one fetch per feed at a time, and a
/// failed one answers the calls of its freshness window (a successful one saved its file in the store).
actor FeedContentFetches {
    private struct Finished {
        var outcome: Result<String, FeedContentFailure>
        var at: ContinuousClock.Instant
    }

    private var inFlight: [String: Task<Result<String, FeedContentFailure>, Never>] = [:]
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
        fetch: @escaping @Sendable () async -> Result<String, FeedContentFailure>
    ) async -> Result<String, FeedContentFailure> {
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
