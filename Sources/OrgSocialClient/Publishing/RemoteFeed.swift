public import Foundation
public import OrgSocial

/// A feed as a destination holds it right now: its parsed content and the version needed to replace it
/// safely.
public struct RemoteFeed: Sendable {
    /// The feed, parsed losslessly from the stored bytes.
    public let feed: Feed
    /// The version a conditional write names (an `ETag` exactly as sent, or a Git blob SHA), or `nil` when
    /// the server gave none.
    public let version: FeedVersion?
    /// The `Last-Modified` header, if any.
    public let lastModified: String?
    /// The URL that answered (after redirects).
    public let url: URL

    /// The `ETag` header (quotes included, exactly as sent), or `nil` when the version is not one.
    public var etag: String? {
        if case .entityTag(let tag) = version { return tag }
        return nil
    }

    /// Makes a remote feed.
    /// - Parameters:
    ///   - feed: the parsed feed.
    ///   - version: its version.
    ///   - lastModified: the `Last-Modified` header.
    ///   - url: the URL that answered.
    public init(feed: Feed, version: FeedVersion?, lastModified: String? = nil, url: URL) {
        self.feed = feed
        self.version = version
        self.lastModified = lastModified
        self.url = url
    }

    /// Makes a remote feed read over plain HTTP.
    /// - Parameters:
    ///   - feed: the parsed feed.
    ///   - etag: the `ETag` header.
    ///   - lastModified: the `Last-Modified` header.
    ///   - url: the URL that answered.
    public init(feed: Feed, etag: String?, lastModified: String? = nil, url: URL) {
        self.init(feed: feed, version: etag.map(FeedVersion.entityTag), lastModified: lastModified, url: url)
    }

    /// The condition that replaces exactly this version: `If-Match` with it, or no condition when the
    /// server gave none.
    public var replacing: WritePrecondition {
        version.map(WritePrecondition.matching) ?? .none
    }
}
