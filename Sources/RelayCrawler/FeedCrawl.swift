import Foundation
import OrgSocial
import OrgSocialClient
import RelayCore

/// Crawls one feed of the crawl list: the conditional GET with its stored validators, the rename after a
/// permanent redirect, parsing and indexing a `200`, recording a `304`, and the back-off after a failure.
/// A value shared by the concurrent tasks of a pass.
struct FeedCrawl: Sendable {
    /// What one feed's crawl did.
    struct Outcome: Sendable {
        /// Fetched (200), not modified (304), failed, or refused by the relay's own address policy.
        enum Kind: Sendable, Hashable {
            case fetched
            case notModified
            case failed
            /// Not fetched: this relay's SSRF guard refuses the feed's address (its own configuration, not
            /// the feed's fault), so no failure or back-off is recorded.
            case refused
        }

        /// What happened.
        var kind: Kind
        /// The feed's URL before the crawl.
        var requestedURL: String
        /// The feed's URL after the crawl (the new one after a rename).
        var url: String
        /// Body bytes downloaded.
        var bytes = 0
        /// What indexing changed (200 only), as counts: the notifications are in the store's log already, and
        /// a pass holds every outcome until it ends (10,000 feeds of 1,000 posts kept 1.9 GB of them).
        var index = RelayIndexReport()
        /// The feed's `#+FOLLOW:` lines (http(s) only), when the feed was downloaded (200).
        var follows: [RelayFollow]?
        /// The failure (or refusal) reason.
        var failure: String?
    }

    /// The crawl list and index.
    let store: any RelayCrawlStore
    /// Sends the requests within the pass's limits.
    let fetcher: FeedFetcher
    /// The SSRF guard.
    let addressGuard: AddressGuard
    /// Back-off settings and the log.
    let configuration: FeedCrawler.Configuration

    /// Crawls one feed; never throws (a failure is recorded and reported).
    /// - Parameters:
    ///   - entry: the feed and its crawl state.
    ///   - conditional: whether to send the stored validators (not when a follows discovery needs the
    ///     body of a feed whose follows the crawler does not remember).
    ///   - now: the pass's time.
    /// - Returns: the outcome.
    func crawl(_ entry: RelayCrawlEntry, conditional: Bool, now: Date) async -> Outcome {
        var storedURL = entry.url
        do {
            guard let url = RelayFeedValidator.httpURL(entry.url) else {
                throw RelayCrawlerError.unsupportedURL(url: entry.url)
            }
            let validators = conditional ? FeedValidators(etag: entry.etag, lastModified: entry.lastModified) : nil
            let result = try await fetcher.fetch(
                url, validators: validators, checkHop: { [addressGuard] in try await addressGuard.check($0) })
            if let moved = result.permanentRedirect?.absoluteString, moved != entry.url {
                try await store.renameFeed(from: entry.url, to: moved)
                storedURL = moved
                configuration.log("relay feed renamed from=\(entry.url) to=\(moved)")
            }
            switch result.outcome {
            case .notModified:
                try await store.recordNotModified(storedURL, now: now)
                return Outcome(kind: .notModified, requestedURL: entry.url, url: storedURL)
            case .fresh(let body):
                let location = result.finalURL.absoluteString
                if body.isEmpty { throw RelayCrawlerError.emptyBody(url: location) }
                if let document = FeedFetcher.nonFeedDocument(body) {
                    throw RelayCrawlerError.notAFeed(url: location, document: document)
                }
                // The decoded text is needed only for the follows; it is gone before the parse, so the file is
                // held once (as `body`, which the feed shares) while it is parsed and stored.
                let follows: [RelayFollow]
                switch RelayFeedText.decode(body) {
                case .success(let text): follows = RelayFeedText.follows(in: text)
                case .failure(let invalid): throw RelayCrawlerError.invalidUTF8(url: location, offset: invalid.offset)
                }
                let feed = try await FeedParsing.parse(body, url: location, budget: configuration.parseTimeout)
                let report = try await store.storeFetched(
                    RelayFetchedFeed(
                        url: storedURL, feed: feed, body: body, etag: result.etag, lastModified: result.lastModified,
                        follows: follows, now: now, relayHost: configuration.groupRelayHost))
                return Outcome(
                    kind: .fetched, requestedURL: entry.url, url: storedURL, bytes: body.count,
                    index: RelayIndexReport(added: report.added, changed: report.changed, removed: report.removed),
                    follows: follows)
            }
        } catch {
            if Task.isCancelled {
                // The relay is stopping: not the feed's fault, so no failure is recorded.
                return Outcome(kind: .failed, requestedURL: entry.url, url: storedURL, failure: "cancelled")
            }
            let reason = RelayFeedValidator.describe(error)
            if case RelayCrawlerError.refused = error {
                // This relay's own policy, not the feed's fault: another process on the same database (a relay
                // started with --allow-private-addresses) must not be made to back off from the feed.
                configuration.log("relay feed refused url=\(storedURL) reason=\(reason) (not counted as a failure)")
                return Outcome(kind: .refused, requestedURL: entry.url, url: storedURL, failure: reason)
            }
            let failures = entry.consecutiveFailures + 1
            let delay = FeedCrawler.backoffDelay(
                failures: failures, base: configuration.backoffBase, cap: configuration.backoffCap,
                jitter: configuration.backoffJitter)
            let nextAttempt = now.addingTimeInterval(delay.seconds)
            do {
                _ = try await store.recordFailure(storedURL, reason: reason, nextAttempt: nextAttempt, now: now)
            } catch {
                configuration.log(
                    "relay feed state not saved url=\(storedURL) reason=\(RelayFeedValidator.describe(error))")
            }
            configuration.log(
                "relay feed failed url=\(storedURL) failures=\(failures) retry_in_s=\(Int(delay.seconds)) "
                    + "reason=\(reason)")
            return Outcome(kind: .failed, requestedURL: entry.url, url: storedURL, failure: reason)
        }
    }
}
