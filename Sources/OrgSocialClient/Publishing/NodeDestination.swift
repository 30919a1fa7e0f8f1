public import Foundation
public import HTTPClient
import HTTPCore

/// A feed on an `orgsocial serve` node (or any server with its rules): read with `GET` from its URL,
/// written with `PUT` to the same URL with `Authorization: Bearer <token>` and `If-Match` or
/// `If-None-Match: *`.
public struct NodeDestination: PublishDestination, Hashable {
    /// The feed's URL, where it is read and written.
    public let feedURL: URL
    /// The feed's token on the node.
    public let token: String

    /// Names a feed on a node.
    /// - Parameters:
    ///   - feedURL: the feed's URL.
    ///   - token: its token.
    public init(feedURL: URL, token: String) {
        self.feedURL = feedURL
        self.token = token
    }

    /// The feed's URL.
    public var location: String { feedURL.absoluteString }

    /// `GET` of the feed's URL.
    public func read(using transport: any HTTPTransport) async throws -> RemoteFeed? {
        try await FeedPublisher.get(feedURL, credentials: .none, using: transport)
    }

    /// `PUT` of the feed's URL; 412 is ``DestinationWrite/changedElsewhere(current:)``.
    public func write(_ bytes: [UInt8], precondition: WritePrecondition, using transport: any HTTPTransport)
        async throws -> DestinationWrite
    {
        try await WebDAVDestination.put(
            bytes, to: feedURL, credentials: .bearer(token), precondition: precondition, using: transport)
    }
}
