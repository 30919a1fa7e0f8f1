package import Foundation
package import RelayCore

/// What a relay database holds, for `orgsocial relay stats --db`: the crawl list, the indexed profiles,
/// posts and follows, the feeds that are failing, and the last crawl pass.
package struct RelayDatabaseSummary: Sendable, Hashable, Codable {
    /// A feed whose last fetches failed.
    package struct FailingFeed: Sendable, Hashable, Codable {
        /// The feed URL.
        package var url: String
        /// Failed fetches in a row.
        package var consecutiveFailures: Int
        /// Why the last fetch failed.
        package var lastError: String?
        /// When the feed was last fetched successfully, if ever.
        package var lastSuccess: Date?
        /// When the crawler tries again.
        package var nextAttempt: Date?

        private enum CodingKeys: String, CodingKey {
            case url, consecutiveFailures, lastError, lastSuccess, nextAttempt
        }

        /// Makes an entry.
        init(url: String, consecutiveFailures: Int, lastError: String?, lastSuccess: Date?, nextAttempt: Date?) {
            self.url = url
            self.consecutiveFailures = consecutiveFailures
            self.lastError = lastError
            self.lastSuccess = lastSuccess
            self.nextAttempt = nextAttempt
        }

        /// Decodes an entry whose dates are ISO 8601 strings.
        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            consecutiveFailures = try container.decode(Int.self, forKey: .consecutiveFailures)
            lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
            let formatter = ISO8601DateFormatter()
            lastSuccess = try container.decodeIfPresent(String.self, forKey: .lastSuccess).flatMap(formatter.date)
            nextAttempt = try container.decodeIfPresent(String.self, forKey: .nextAttempt).flatMap(formatter.date)
        }

        /// Encodes the entry with its dates as ISO 8601 strings (UTC).
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encode(consecutiveFailures, forKey: .consecutiveFailures)
            try container.encodeIfPresent(lastError, forKey: .lastError)
            let formatter = ISO8601DateFormatter()
            try container.encodeIfPresent(lastSuccess.map(formatter.string), forKey: .lastSuccess)
            try container.encodeIfPresent(nextAttempt.map(formatter.string), forKey: .nextAttempt)
        }
    }

    /// The database file.
    package var databasePath: String
    /// Feeds in the crawl list.
    package var feeds: Int
    /// Profiles (scanned feeds and followed placeholders).
    package var profiles: Int
    /// Posts indexed.
    package var posts: Int
    /// Follow relations recorded.
    package var follows: Int
    /// Feeds never fetched successfully yet.
    package var neverFetched: Int
    /// Feeds whose last fetch failed, most failures first.
    package var failingFeeds: [FailingFeed]
    /// The last crawl pass, if any pass was recorded.
    package var lastPass: RelayPassSummary?
    /// The outgoing Webmention queue: how many are `pending`, `sent`, `failed` and `no_endpoint`
    /// (`nil` when not read).
    package var webmentions: [String: Int]?

    /// Builds a summary from the crawl list, the index's totals and the stored last pass.
    ///
    /// - Parameters:
    ///   - databasePath: The database file.
    ///   - entries: The crawl list with its state.
    ///   - totals: The index's totals (zeros when `nil`).
    ///   - lastPass: The last pass recorded.
    package init(
        databasePath: String, entries: [RelayCrawlEntry], totals: GlobalCounters?, lastPass: RelayPassSummary?
    ) {
        self.databasePath = databasePath
        feeds = entries.count
        profiles = totals?.totalAccounts ?? 0
        posts = totals?.totalPosts ?? 0
        follows = totals?.totalFollows ?? 0
        neverFetched = entries.filter { $0.lastSuccess == nil && $0.consecutiveFailures == 0 }.count
        failingFeeds = entries.filter { $0.consecutiveFailures > 0 }
            .sorted { ($0.consecutiveFailures, $1.url) > ($1.consecutiveFailures, $0.url) }
            .map {
                FailingFeed(
                    url: $0.url, consecutiveFailures: $0.consecutiveFailures, lastError: $0.lastError,
                    lastSuccess: $0.lastSuccess, nextAttempt: $0.nextAttempt)
            }
        self.lastPass = lastPass
    }
}
