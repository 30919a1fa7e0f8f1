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
    /// The file kept changing under the bridge.
    case keptChanging(path: String, attempts: Int)
    /// The feed can be read but not written: no way to publish it is configured.
    case readOnly(url: String)

    /// What went wrong (an application adds what its user can do about it).
    public var errorDescription: String? {
        switch self {
        case .file(let path, let reason):
            return "The feed \(path) cannot be updated: \(reason). Check the path and its permissions."
        case .noFile(let path):
            return "The feed \(path) cannot be updated: there is no file there."
        case .keptChanging(let path, let attempts):
            return "The feed \(path) changed during each of \(attempts) attempts to add pulled statuses; "
                + "run the bridge again when nothing else is writing the file."
        case .readOnly(let url):
            return "The feed \(url) can be read but not written: no way to publish it is configured."
        }
    }
}

/// A `social.org` file on this machine, replaced atomically. Before the new content replaces it, the file is
/// read again: if it changed since the edit started (an editor saved it), the edit is re-applied to the new
/// content.
public struct LocalBridgeFeed: BridgeFeed {
    /// The file.
    public let path: String
    /// The feed's public URL, if known.
    public let publicURL: URL?
    /// How many times an edit is re-applied at most.
    public var maxAttempts = 5

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

    /// Applies `edit`, writing atomically; re-applies it when the file changed meanwhile.
    public func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        for _ in 1...max(1, maxAttempts) {
            let before = try read()
            var feed = Feed(bytes: before)
            let value = try feed.applyChecked(edit).result
            if feed.bytes == before { return value }
            guard try read() == before else { continue }
            do {
                try AtomicFile.write(feed.bytes, to: path, permissions: nil, symbolicLinks: .follow)
            } catch {
                throw BridgeFeedError.file(path: path, reason: "\(error.operation) failed: \(error.message)")
            }
            return value
        }
        throw BridgeFeedError.keptChanging(path: path, attempts: max(1, maxAttempts))
    }

    /// The feed as it is on disk now.
    /// - Returns: the parsed feed (lossless).
    /// - Throws: ``BridgeFeedError/noFile(path:)`` when there is no file, ``BridgeFeedError/file(path:reason:)``
    ///   when it cannot be read.
    public func current() throws -> Feed { Feed(bytes: try read()) }

    private func read() throws -> [UInt8] {
        do {
            guard let (bytes, _) = try AtomicFile.read(path) else {
                throw BridgeFeedError.noFile(path: path)
            }
            return bytes
        } catch let error as BridgeFeedError {
            throw error
        } catch {
            throw BridgeFeedError.file(path: path, reason: "\(error)")
        }
    }
}

/// A feed published on a server: `PUT` with `If-Match` (an `orgsocial serve` node) or the Org Social Host
/// API, through `FeedPublisher`, which reads the feed again and re-applies the edit on `412`.
public struct PublishedBridgeFeed: BridgeFeed {
    /// Where the feed is published and how.
    public let destination: PublishDestination
    /// The publisher.
    public let publisher: FeedPublisher

    /// Makes a published feed.
    /// - Parameters:
    ///   - destination: the feed's public URL and how it is written.
    ///   - publisher: the publisher (its transport and retry pause).
    public init(destination: PublishDestination, publisher: FeedPublisher) {
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
        try await destination.publish(with: publisher, creating: nil) { feed in try feed.applyChecked(edit).result }
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
