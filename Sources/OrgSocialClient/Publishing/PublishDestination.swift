public import Foundation
public import HTTPClient

/// Where a feed is stored and how it is read and written: an `orgsocial serve` node (``NodeDestination``),
/// an Org Social Host (``HostDestination``), a WebDAV share (``WebDAVDestination``), or a file in a Git
/// repository on GitHub or a Forgejo/Gitea server such as Codeberg (``RepositoryDestination``).
///
/// A destination only knows its own requests: how to read the feed with the version a conditional write
/// names, and how to write it on that condition. The write cycle that reads, applies a change, writes, and
/// reads again when the feed changed meanwhile is ``FeedPublisher``'s, the same for every destination.
///
/// ```swift
/// let destination = WebDAVDestination(
///     feedURL: URL(string: "https://dav.example/ana/social.org")!, credentials: .basic(user: "ana", password: secret))
/// let result = try await FeedPublisher().publish(to: destination) { feed in feed.append(PostDraft(body: "Hi")) }
/// ```
public protocol PublishDestination: Sendable {
    /// The feed's public URL: what others follow, and what a merge base is kept for.
    var feedURL: URL { get }
    /// Where the writes go, for messages: a URL, or the repository file (`github:ana/feed/social.org@main`).
    var location: String { get }

    /// Reads the feed as it is stored now, bypassing caches.
    /// - Parameter transport: what sends the requests.
    /// - Returns: the feed and its version, or `nil` when there is no feed yet.
    /// - Throws: ``OrgSocialClientError``.
    func read(using transport: any HTTPTransport) async throws -> RemoteFeed?

    /// Writes `bytes` as the whole feed, on `precondition`.
    /// - Parameters:
    ///   - bytes: the complete feed.
    ///   - precondition: the version the stored feed must still have, or that there must be none.
    ///   - transport: what sends the requests.
    /// - Returns: whether the write landed (with the new version when the server says it) or the stored
    ///   feed had changed meanwhile.
    /// - Throws: ``OrgSocialClientError`` for every other failure.
    func write(_ bytes: [UInt8], precondition: WritePrecondition, using transport: any HTTPTransport) async throws
        -> DestinationWrite
}

/// The version of a stored feed that a conditional write names.
public enum FeedVersion: Sendable, Hashable, CustomStringConvertible {
    /// An HTTP entity tag (`ETag`), sent back as `If-Match`; kept exactly as the server sent it.
    case entityTag(String)
    /// A Git blob SHA-1 (GitHub and Forgejo contents APIs), sent back as `sha`.
    case blob(String)

    /// The tag or the SHA.
    public var description: String {
        switch self {
        case .entityTag(let tag): tag
        case .blob(let sha): sha
        }
    }
}

/// What one conditional write to a destination led to.
public enum DestinationWrite: Sendable, Hashable {
    /// The destination took it; its new version, when it said.
    case written(FeedVersion?)
    /// The stored feed is no longer the version the write named (HTTP 412, a stale `sha`, a file created
    /// meanwhile); nothing was written. The current version, when the destination said.
    case changedElsewhere(current: FeedVersion?)
}

/// The condition a write puts on the feed it replaces.
public enum WritePrecondition: Sendable, Hashable {
    /// Replace the feed only if it still has this version.
    case matching(FeedVersion)
    /// Create the feed only if there is none yet (`If-None-Match: *`, or a contents-API create).
    case noExistingFile
    /// No condition from the server: the write replaces whatever is there. ``FeedPublisher`` uses it only
    /// after reading the feed again and finding the bytes it read (a server without validators).
    case none
}

/// The credentials of a WebDAV share or a node: HTTP Basic, or a bearer token.
public enum HTTPCredentials: Sendable, Hashable {
    /// No `Authorization` header.
    case none
    /// `Authorization: Basic base64(user:password)`.
    case basic(user: String, password: String)
    /// `Authorization: Bearer <token>`.
    case bearer(String)

    /// The `Authorization` header's value, or `nil` for ``none``.
    public var authorization: String? {
        switch self {
        case .none: nil
        case .basic(let user, let password): "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer \(token)"
        }
    }
}
