public import Foundation
import HTTPClient
public import OrgSocial

/// Appends posts to a feed and publishes them: the entry point OrgSocialKit users know, built on the
/// core library's composers and on ``FeedPublisher``.
///
/// ```swift
/// let writer = PostWriter()
/// let options = NewPostOptions(text: "Hello from Swift!", lang: "en", tags: "swift")
///
/// // Offline: edit text you already have.
/// let (updatedContent, postURL) = try writer.appendPost(to: content, feedURL: feedURL, options: options)
///
/// // Online: append to the feed on its server, safely even if another client writes at the same time.
/// let published = try await writer.publishPost(options, to: feedURL, token: token)
/// print(published.postURL)
/// ```
public struct PostWriter: Sendable {
    /// What publishes the posts.
    public let publisher: FeedPublisher

    /// Makes a writer.
    /// - Parameter publisher: the publisher to use; one over `CurlTransport` by default.
    public init(publisher: FeedPublisher = FeedPublisher()) {
        self.publisher = publisher
    }

    /// Appends a new post to feed text, creating `* Posts` when it is missing. Pure: nothing is sent.
    /// - Parameters:
    ///   - content: the current `social.org` text.
    ///   - feedURL: the feed's public URL, used to build the post's URL.
    ///   - options: the new post.
    ///   - date: the post's time, which becomes its ID; now by default.
    ///   - timeZone: the zone the ID is written in.
    /// - Returns: the new text and the post's URL, `<feed URL>#<ID>`.
    /// - Throws: ``OrgSocialClientError/invalidOptions(_:)`` when the options are not a valid post.
    public func appendPost(
        to content: String, feedURL: URL, options: NewPostOptions, at date: Date = Date(),
        timeZone: TimeZone = .current
    ) throws -> (updatedContent: String, postURL: String) {
        var feed = Feed(parsing: content)
        let post = feed.append(try options.makeDraft(), at: date, timeZone: timeZone)
        return (feed.text, Self.postURL(feedURL: feedURL, id: post.id))
    }

    /// Appends a new post to the feed on its server with `PUT` (see
    /// ``FeedPublisher/publish(to:token:maxAttempts:creating:edit:)``).
    /// - Parameters:
    ///   - options: the new post.
    ///   - feedURL: the feed's URL.
    ///   - token: the bearer token for the feed.
    ///   - date: the post's time; now by default (moved on a second at a time if taken).
    ///   - timeZone: the zone the ID is written in.
    /// - Returns: the post's URL and the publish result (whose `value` is the post as appended).
    /// - Throws: ``PostWriterError``.
    public func publishPost(
        _ options: NewPostOptions, to feedURL: URL, token: String, at date: Date = Date(),
        timeZone: TimeZone = .current
    ) async throws -> (postURL: String, result: PublishResult<Post>) {
        let draft = try options.makeDraft()
        let result = try await publisher.publish(to: feedURL, token: token) { feed in
            feed.append(draft, at: date, timeZone: timeZone)
        }
        return (Self.postURL(feedURL: feedURL, id: result.value.id), result)
    }

    /// Appends a new post to a feed hosted on an Org Social Host (see
    /// ``FeedPublisher/publishViaHost(vfile:publicURL:maxAttempts:creating:edit:)``).
    /// - Parameters:
    ///   - options: the new post.
    ///   - vfile: the account's vfile.
    ///   - publicURL: the feed's public URL.
    ///   - date: the post's time; now by default.
    ///   - timeZone: the zone the ID is written in.
    /// - Returns: the post's URL and the publish result.
    /// - Throws: ``PostWriterError``.
    public func publishPost(
        _ options: NewPostOptions, viaHost vfile: URL, publicURL: URL, at date: Date = Date(),
        timeZone: TimeZone = .current
    ) async throws -> (postURL: String, result: PublishResult<Post>) {
        let draft = try options.makeDraft()
        let result = try await publisher.publishViaHost(vfile: vfile, publicURL: publicURL) { feed in
            feed.append(draft, at: date, timeZone: timeZone)
        }
        return (Self.postURL(feedURL: publicURL, id: result.value.id), result)
    }

    private static func postURL(feedURL: URL, id: String?) -> String {
        "\(feedURL.absoluteString)#\(id ?? "")"
    }
}
