public import Foundation
public import OrgSocial

/// What ``FeedFetcher/fetch(_:)`` read: the feed, where it came from, and whether it changed.
public struct FeedFetchResult: Sendable {
    /// Whether the feed was downloaded or confirmed unchanged.
    public enum Status: String, Sendable, Hashable, Codable {
        /// A full `200` download.
        case fresh
        /// The server answered `304 Not Modified`; the feed is the cached copy.
        case notModified = "not-modified"
    }

    /// The URL asked for.
    public let requestedURL: URL
    /// The URL that answered, after redirects.
    public let finalURL: URL
    /// Fresh or not modified.
    public let status: Status
    /// The parsed feed (invalid UTF-8 reads as U+FFFD, with a diagnostic in `feed.diagnostics`).
    public let feed: Feed
    /// The `ETag` to send next time, if any.
    public let etag: String?
    /// The `Last-Modified` date to send next time, if any.
    public let lastModified: String?
    /// Where the feed moved to for good, when a `301` or `308` (and only permanent redirects) led to it:
    /// callers can offer to update the follow.
    public let permanentRedirect: URL?
    /// How many body bytes were downloaded (0 for a `304`).
    public let downloadedBytes: Int

    /// Makes a result.
    /// - Parameters:
    ///   - requestedURL: the URL asked for.
    ///   - finalURL: the URL that answered.
    ///   - status: fresh or not modified.
    ///   - feed: the feed.
    ///   - etag: the `ETag`.
    ///   - lastModified: the `Last-Modified` date.
    ///   - permanentRedirect: the permanent new location, if any.
    ///   - downloadedBytes: body bytes downloaded.
    public init(
        requestedURL: URL, finalURL: URL, status: Status, feed: Feed, etag: String?, lastModified: String?,
        permanentRedirect: URL?, downloadedBytes: Int
    ) {
        self.requestedURL = requestedURL
        self.finalURL = finalURL
        self.status = status
        self.feed = feed
        self.etag = etag
        self.lastModified = lastModified
        self.permanentRedirect = permanentRedirect
        self.downloadedBytes = downloadedBytes
    }
}
