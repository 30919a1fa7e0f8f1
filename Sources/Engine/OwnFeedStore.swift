package import EngineProtocol
import Foundation
import HTTPClient
package import OrgSocial
package import OrgSocialClient

/// Reads and writes the account's own feed in whichever way `initialize` configured (engine-protocol.md
/// §5, §7): the local file (then uploaded without a precondition when there is an upload method), or the
/// destination's conditional read-modify-write with FeedPublisher's retries, or, read-only, the feed URL.
package struct OwnFeedStore: Sendable {
    /// The account.
    package let account: EngineAccount
    /// The publisher (and its transport).
    package let publisher: FeedPublisher

    /// A store for `account`.
    /// - Parameters:
    ///   - account: the account.
    ///   - publisher: the publisher.
    package init(account: EngineAccount, publisher: FeedPublisher) {
        self.account = account
        self.publisher = publisher
    }

    /// The own feed as it is now: the file, a fresh read of the destination, or a `GET` of the feed URL.
    /// - Returns: the feed.
    /// - Throws: ``RPCError`` (`not_configured` without a feed, `file`, `network`).
    package func read() async throws(RPCError) -> Feed {
        guard let feedURL = account.feedURL else { throw RPCError.notConfigured }
        if let file = account.file { return try Self.readFile(file) }
        do {
            if let destination = account.destination {
                guard let remote = try await publisher.read(destination) else {
                    throw RPCError(.network, "Remote file not found.")
                }
                return remote.feed
            }
            let stamp = Int(Date().timeIntervalSince1970 * 1000)
            let separator = feedURL.query == nil ? "?" : "&"
            guard let url = URL(string: feedURL.absoluteString + "\(separator)_t=\(stamp)"),
                let remote = try await publisher.fetch(url)
            else { throw RPCError(.network, "The server returned HTTP 404.") }
            return remote.feed
        } catch let error as RPCError {
            throw error
        } catch {
            throw EngineErrors.rpc(error)
        }
    }

    /// The local feed file's content.
    /// - Parameter path: the file.
    /// - Returns: the feed.
    /// - Throws: ``RPCError`` `file` when it is missing, unreadable or not UTF-8.
    package static func readFile(_ path: String) throws(RPCError) -> Feed {
        try checkFile(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw RPCError(.file, "Could not read \(path).")
        }
        guard String(data: data, encoding: .utf8) != nil else {
            throw RPCError(.file, "The file \(path) is not UTF-8 text.")
        }
        return Feed(bytes: Array(data))
    }

    /// Checks that the local feed file is there and is a file.
    /// - Parameter path: the file.
    /// - Throws: ``RPCError`` `file`.
    package static func checkFile(_ path: String) throws(RPCError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw RPCError(.file, "The file \(path) does not exist.")
        }
        guard !isFolder.boolValue else { throw RPCError(.file, "Could not read \(path).") }
    }

    /// What a write did besides applying the change.
    package enum Upload: Sendable, Equatable {
        /// Nothing was uploaded (a local file alone).
        case none
        /// The feed was uploaded.
        case uploaded
        /// The local file was saved, the upload failed: why.
        case failed(String)
    }

    /// Applies `change` to the own feed and stores the result: in the local file (then uploaded whole
    /// when there is an upload method), or on the destination with a conditional write, read again and
    /// applied again when the feed changed meanwhile, up to three uploads.
    /// - Parameter change: the edit, run on fresh content at every attempt.
    /// - Returns: the change's value, the feed as stored, and what became of the upload.
    /// - Throws: ``RPCError``: what `change` throws, `file`, `network`, `conflict`.
    package func write<Value: Sendable>(_ change: @escaping @Sendable (inout Feed) throws -> Value)
        async throws(RPCError)
        -> (value: Value, feed: Feed, upload: Upload)
    {
        guard account.hasWriteTarget else { throw RPCError.notConfigured }
        if let file = account.file {
            try Self.checkFile(file)
            let result: (Value, Feed)
            do {
                result = try LocalFeedFile(path: file, holder: "orgsocial engine").update { bytes in
                    guard String(validating: bytes, as: UTF8.self) != nil else {
                        throw RPCError(.file, "The file \(file) is not UTF-8 text.")
                    }
                    var feed = Feed(bytes: bytes)
                    let value = try change(&feed)
                    return ((value, feed), feed.bytes)
                }
            } catch {
                throw EngineErrors.rpc(error)
            }
            guard let destination = account.destination else { return (result.0, result.1, .none) }
            return (result.0, result.1, await upload(result.1.bytes, to: destination))
        }
        guard let destination = account.destination else { throw RPCError.notConfigured }
        do {
            let published = try await publisher.publish(to: destination, edit: change)
            return (published.value, published.feed, .uploaded)
        } catch {
            throw EngineErrors.rpc(error)
        }
    }

    /// Uploads the whole file with no precondition, as the official engine does after a local save.
    /// - Parameters:
    ///   - bytes: the file.
    ///   - destination: where it goes.
    /// - Returns: ``Upload/uploaded`` or why it failed.
    package func upload(_ bytes: [UInt8], to destination: any PublishDestination) async -> Upload {
        do {
            _ = try await destination.write(bytes, precondition: .none, using: publisher.transport)
            return .uploaded
        } catch {
            return .failed(EngineErrors.rpc(error).message)
        }
    }
}
