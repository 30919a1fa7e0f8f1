package import Foundation
package import RelayCore

/// What one crawl pass did, as `orgsocial relay scan` prints it and as the database remembers the last one
/// (for `orgsocial relay stats --db`).
package struct RelayPassSummary: Sendable, Hashable, Codable {
    /// When the pass ended, ISO 8601 in UTC (`2026-11-29T17:33:15Z`).
    package var finishedAt: String
    /// Wall time of the pass, in seconds.
    package var durationSeconds: Double
    /// The part of ``durationSeconds`` spent discovering feeds rather than crawling the list (`nil` in
    /// summaries stored before it was kept).
    package var discoverySeconds: Double?
    /// Feeds in the crawl list when the pass started.
    package var feeds: Int
    /// Feeds downloaded in full (200).
    package var fetched: Int
    /// Feeds answered with 304 Not Modified.
    package var notModified: Int
    /// Feeds skipped because their back-off time had not come.
    package var skipped: Int
    /// Feeds whose fetch or parse failed (their old data is kept).
    package var failed: Int
    /// Feeds added to the crawl list by follows or peer discovery.
    package var discovered: Int
    /// Feeds removed from the crawl list after 3 days without success.
    package var dropped: Int
    /// Posts added.
    package var postsAdded: Int
    /// Posts changed.
    package var postsChanged: Int
    /// Posts removed.
    package var postsRemoved: Int
    /// Bytes of feed bodies downloaded.
    package var bytesDownloaded: Int
    /// The failure reason of each failed feed, by URL.
    package var failures: [String: String]
    /// The feeds this relay's address policy refused to fetch (not failures), with the reason, by URL
    /// (`nil` in summaries stored before it was kept).
    package var refusals: [String: String]?

    /// Summarises a crawler report.
    ///
    /// - Parameters:
    ///   - report: What the pass did.
    ///   - finishedAt: When it ended.
    package init(report: RelayScanReport, finishedAt: Date) {
        self.finishedAt = ISO8601DateFormatter().string(from: finishedAt)
        durationSeconds = Self.seconds(report.duration)
        discoverySeconds = Self.seconds(report.discoveryDuration)
        feeds = report.feeds
        fetched = report.fetched
        notModified = report.notModified
        skipped = report.skipped
        failed = report.failed
        discovered = report.discovered
        dropped = report.dropped
        postsAdded = report.postsAdded
        postsChanged = report.postsChanged
        postsRemoved = report.postsRemoved
        bytesDownloaded = report.bytesDownloaded
        failures = report.failures
        refusals = report.refusals
    }

    /// The time spent crawling the list: the pass without its discovery.
    package var crawlSeconds: Double { max(0, durationSeconds - (discoverySeconds ?? 0)) }

    private static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    // MARK: - Storage

    /// The meta key under which the last pass is kept in the database.
    package static let metaKey = "relay.last_pass"

    /// When the pass ended, as a date.
    package var finishedDate: Date? { ISO8601DateFormatter().date(from: finishedAt) }

    /// The summary as stored in the database (JSON).
    package func storedText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Reads a summary stored by ``storedText()``; `nil` for anything else.
    ///
    /// - Parameter text: The stored JSON.
    package init?(storedText text: String) {
        guard let summary = try? JSONDecoder().decode(Self.self, from: Data(text.utf8)) else { return nil }
        self = summary
    }
}
