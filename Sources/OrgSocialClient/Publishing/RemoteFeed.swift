public import Foundation
public import OrgSocial

/// A feed as a server holds it right now: its parsed content and the validator needed to replace it
/// safely.
public struct RemoteFeed: Sendable {
    /// The feed, parsed losslessly from the response body.
    public let feed: Feed
    /// The `ETag` header (quotes included, exactly as sent), or `nil` when the server sent none.
    public let etag: String?
    /// The `Last-Modified` header, if any.
    public let lastModified: String?
    /// The URL that answered (after redirects).
    public let url: URL

    /// Makes a remote feed.
    /// - Parameters:
    ///   - feed: the parsed feed.
    ///   - etag: the `ETag` header.
    ///   - lastModified: the `Last-Modified` header.
    ///   - url: the URL that answered.
    public init(feed: Feed, etag: String?, lastModified: String? = nil, url: URL) {
        self.feed = feed
        self.etag = etag
        self.lastModified = lastModified
        self.url = url
    }
}
