public import Foundation
public import OrgSocial
public import OrgSocialClient
import SystemSupport

/// The Org Social feed a bridge writes pulled statuses into: a local file or a published feed. An edit is
/// applied to the feed as it is at the moment of writing; when someone else changed it meanwhile, the edit
/// is applied again to the new content, so a concurrent edit is never lost.
public protocol BridgeFeed: Sendable {
    /// The name the state file keys mappings and cursors by: the feed's URL when it is known, else the file's
    /// absolute path.
    var key: String { get }
    /// The feed's public URL, if known: the base of `REPLY_TO` and `INCLUDE` references.
    var publicURL: URL? { get }
    /// Applies `edit` to the current feed and writes the result (nothing is written when it changes nothing).
    /// An edit that would add format errors is refused (`Feed.applyChecked(_:)`), so pulled
    /// statuses never make the feed less readable.
    /// - Parameter edit: the change; it may run more than once, each time on fresh content.
    /// - Returns: what the last run of `edit` returned.
    /// - Throws: ``BridgeFeedError``, `FeedChangeAddsErrors`, `OrgSocialClientError`, or what `edit` throws.
    func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value
}

/// Why the bridge could not read or write its feed.
public enum BridgeFeedError: Error, Sendable, Hashable, LocalizedError {
    /// The local file cannot be read or written.
    case file(path: String, reason: String)
    /// There is no local file at the path.
    case noFile(path: String)
    /// The feed can be read but not written: no way to publish it is configured.
    case readOnly(url: String)

    /// What went wrong (an application adds what its user can do about it).
    public var errorDescription: String? {
        switch self {
        case .file(let path, let reason):
            return "The feed \(path) cannot be updated: \(reason). Check the path and its permissions."
        case .noFile(let path):
            return "The feed \(path) cannot be updated: there is no file there."
        case .readOnly(let url):
            return "The feed \(url) can be read but not written: no way to publish it is configured."
        }
    }
}

/// A `social.org` file on this machine, changed under its lock (`LocalFeedFile`): the edit is applied to
/// the file as it is once the lock is held, so an edit by another writer of this toolkit (a command, a
/// second bridge) is never lost, and a writer holding the lock is waited for, up to ``lockWait``.
public struct LocalBridgeFeed: BridgeFeed {
    /// The file.
    public let path: String
    /// The feed's public URL, if known.
    public let publicURL: URL?
    /// How long to wait for another writer's lock.
    public var lockWait: Duration = .seconds(10)

    /// Makes a local feed.
    /// - Parameters:
    ///   - path: the file (made absolute).
    ///   - publicURL: where it is published, if known.
    public init(path: String, publicURL: URL? = nil) {
        self.path =
            path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        self.publicURL = publicURL
    }

    /// The public URL when known, else the absolute path.
    public var key: String { publicURL?.absoluteString ?? path }

    /// Applies `edit` to the file under its lock, writing atomically when it changed anything.
    /// - Throws: ``BridgeFeedError``, `LocalFeedFileError/locked(path:holder:waited:)` when another writer
    ///   held the lock for the whole wait, `FeedChangeAddsErrors`, or what `edit` throws.
    public func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        do {
            return try file.update { bytes in
                var feed = Feed(bytes: bytes)
                let value = try feed.applyChecked(edit).result
                return (value, feed.bytes)
            }
        } catch let error as LocalFeedFileError {
            throw Self.bridgeError(error)
        }
    }

    /// The feed as it is on disk now.
    /// - Returns: the parsed feed (lossless).
    /// - Throws: ``BridgeFeedError/noFile(path:)`` when there is no file, ``BridgeFeedError/file(path:reason:)``
    ///   when it cannot be read.
    public func current() throws -> Feed {
        do {
            return Feed(bytes: try file.read())
        } catch {
            throw Self.bridgeError(error)
        }
    }

    private var file: LocalFeedFile { LocalFeedFile(path: path, lockWait: lockWait, holder: "orgsocial bridge") }

    /// The bridge's error for a file failure; the lock's own error passes through.
    private static func bridgeError(_ error: LocalFeedFileError) -> any Error {
        switch error {
        case .noFile(let path): BridgeFeedError.noFile(path: path)
        case .unreadable(let path, let reason), .unwritable(let path, let reason), .lockFailed(let path, let reason):
            BridgeFeedError.file(path: path, reason: reason)
        case .readOnly(let path): BridgeFeedError.file(path: path, reason: "it is read-only")
        case .locked, .keptChanging: error
        }
    }
}

/// A feed published at a destination (a node, a host, a WebDAV share, a repository), through
/// `FeedPublisher`'s write cycle, which reads the feed again and re-applies the edit when it changed
/// elsewhere.
public struct PublishedBridgeFeed: BridgeFeed {
    /// Where the feed is published and how.
    public let destination: any PublishDestination
    /// The publisher.
    public let publisher: FeedPublisher

    /// Makes a published feed.
    /// - Parameters:
    ///   - destination: the feed's public URL and how it is written.
    ///   - publisher: the publisher (its transport and retry pause).
    public init(destination: any PublishDestination, publisher: FeedPublisher) {
        self.destination = destination
        self.publisher = publisher
    }

    /// The feed's URL.
    public var url: URL { destination.feedURL }

    /// The feed's URL.
    public var key: String { url.absoluteString }

    /// The feed's URL.
    public var publicURL: URL? { url }

    /// Applies `edit` through the publisher, refusing it before anything is sent when it would add format
    /// errors.
    public func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        try await publisher.publish(to: destination, creating: nil) { feed in try feed.applyChecked(edit).result }
            .value
    }
}

/// A published feed the bridge only reads (a push without a way to publish configured): writing it throws
/// ``BridgeFeedError/readOnly(url:)``.
public struct ReadOnlyBridgeFeed: BridgeFeed {
    /// The feed's URL.
    public let url: URL

    /// Names the feed.
    /// - Parameter url: its URL.
    public init(url: URL) { self.url = url }

    /// The URL.
    public var key: String { url.absoluteString }

    /// The URL.
    public var publicURL: URL? { url }

    /// Refuses: this feed cannot be written.
    /// - Throws: ``BridgeFeedError/readOnly(url:)``.
    public func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        throw BridgeFeedError.readOnly(url: url.absoluteString)
    }
}
