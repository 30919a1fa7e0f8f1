public import Foundation
public import OrgSocial

/// Where a feed is published and how: its public URL, and `PUT` with a token or the Org Social Host API
/// with a vfile.
public struct PublishDestination: Sendable, Hashable {
    /// How the feed is written.
    public enum Method: Sendable, Hashable {
        /// `PUT` to the feed URL with a bearer token and `If-Match`.
        case put(token: String)
        /// The Org Social Host API with a vfile.
        case host(vfile: URL)
    }

    /// Where the feed is read, and for `put` written.
    public let feedURL: URL
    /// How it is written.
    public let method: Method

    /// Makes a destination.
    /// - Parameters:
    ///   - feedURL: the feed's public URL.
    ///   - method: how it is written.
    public init(feedURL: URL, method: Method) {
        self.feedURL = feedURL
        self.method = method
    }

    /// Applies `edit` to the remote feed and uploads the result, retrying on conflicts.
    /// - Parameters:
    ///   - publisher: the publisher.
    ///   - newFeed: what to start from when the remote feed does not exist yet.
    ///   - edit: the change.
    /// - Returns: the publisher's result.
    /// - Throws: ``OrgSocialClientError``, or what `edit` throws.
    public func publish<Value: Sendable>(
        with publisher: FeedPublisher, creating newFeed: Feed?, edit: @Sendable (inout Feed) throws -> Value
    ) async throws -> PublishResult<Value> {
        switch method {
        case .put(let token):
            try await publisher.publish(to: feedURL, token: token, creating: newFeed, edit: edit)
        case .host(let vfile):
            try await publisher.publishViaHost(vfile: vfile, publicURL: feedURL, creating: newFeed, edit: edit)
        }
    }

    /// Uploads a whole file once.
    /// - Parameters:
    ///   - bytes: the feed.
    ///   - precondition: `If-Match` or `If-None-Match: *`.
    ///   - publisher: the publisher.
    /// - Returns: the new `ETag`, if any.
    /// - Throws: ``OrgSocialClientError``.
    @discardableResult
    public func upload(_ bytes: [UInt8], precondition: WritePrecondition, with publisher: FeedPublisher) async throws
        -> String?
    {
        switch method {
        case .put(let token):
            try await publisher.upload(bytes, to: feedURL, token: token, precondition: precondition)
        case .host(let vfile):
            try await publisher.uploadViaHost(bytes, vfile: vfile, precondition: precondition)
        }
    }
}
