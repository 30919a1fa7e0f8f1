import Foundation
import RelayCore
import RelayCrawler

/// Adding feeds and summarizing the database, as the `relay add-feed` and `relay stats` commands need.
extension RelayService {
    /// Adds a feed to the crawl list the way `POST /feeds/` does (`relay-api.md` §2.3): refuses bridge
    /// URLs and (unless allowed) private addresses, fetches the feed once to check it, then adds it.
    ///
    /// - Parameter feedURL: The feed's URL; surrounding whitespace is stripped.
    /// - Returns: The outcome, with the relay's own message on failure.
    public func addFeed(_ feedURL: String) async -> RelayFeedAddition {
        let feed = feedURL.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !feed.isEmpty else {
            return .refused(feed: feed, reason: "Feed URL is required")
        }
        return RelayFeedAddition(feed: feed, outcome: await validator.register(feed: feed))
    }

    /// What the database holds: feeds, profiles, posts, follows, failing feeds and the last pass.
    ///
    /// - Returns: The summary.
    /// - Throws: ``RelayServiceError/databaseFailure(path:reason:)``.
    package func summary() async throws -> RelayDatabaseSummary {
        do {
            let entries = try await store.crawlEntries()
            // As `/stats/` answered before: a failing count reads as zero counters, not as a failure.
            let totals = try? await store.stats().global
            let lastPass = try await store.metaValue(RelayPassSummary.metaKey).flatMap {
                RelayPassSummary(storedText: $0)
            }
            var summary = RelayDatabaseSummary(
                databasePath: configuration.databaseDisplayName, entries: entries, totals: totals, lastPass: lastPass)
            let queue = try await store.webmentionCounts()
            summary.webmentions = Dictionary(uniqueKeysWithValues: queue.map { ($0.key.rawValue, $0.value) })
            return summary
        } catch {
            throw RelayServiceError.databaseFailure(
                path: configuration.databaseDisplayName, reason: Self.sentence(error))
        }
    }
}
