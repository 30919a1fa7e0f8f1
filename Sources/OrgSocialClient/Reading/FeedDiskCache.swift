public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk cache of downloaded feeds that makes repeated reads conditional: for each feed URL it
/// keeps the validators (`ETag`, `Last-Modified`), the body and when it was fetched.
///
/// Entries live in one folder (`$XDG_CACHE_HOME/orgsocial/feeds` by default), two files per feed named
/// after a hash of the URL: `<hash>.json` (metadata, including the URL itself, checked on every read so
/// a hash collision is a miss) and `<hash>.org` (the body). Writes are atomic (a temporary file, then
/// `rename`) but not flushed to disk with `fsync`: a cache entry lost in a crash only costs a download,
/// while 2,000 `fsync`s made a 1,000-feed timeline several times slower. A damaged entry reads as a miss:
/// the metadata keeps the body's length and hash (64-bit FNV-1a), and a body that does not match them
/// (truncated, overwritten, or an entry written before they were kept) is downloaded again in full,
/// instead of being trusted until the server's `ETag` changes.
public struct FeedDiskCache: Sendable {
    /// One cached feed.
    public struct Entry: Sendable, Hashable, Codable {
        /// The URL the feed was requested at (the cache key).
        public var url: String
        /// The `ETag` the server sent, if any.
        public var etag: String?
        /// The `Last-Modified` the server sent, if any.
        public var lastModified: String?
        /// When the body was downloaded, or its validators last changed with a `304` (an unchanged `304`
        /// writes nothing).
        public var fetchedAt: Date
        /// The URL that answered, after redirects.
        public var finalURL: String
        /// The body.
        public var body: [UInt8] {
            didSet { bodyCheck = BodyCheck(body) }
        }
        /// The length and hash of the body stored with it; for a decoded entry, the ones its metadata holds.
        var bodyCheck: BodyCheck?

        private enum CodingKeys: String, CodingKey {
            case url, etag, lastModified, fetchedAt, finalURL, bodyBytes, bodyHash
        }

        /// Makes an entry.
        /// - Parameters:
        ///   - url: the requested URL.
        ///   - etag: the `ETag`.
        ///   - lastModified: the `Last-Modified` date.
        ///   - fetchedAt: when it was fetched.
        ///   - finalURL: the URL that answered.
        ///   - body: the body.
        public init(
            url: String, etag: String?, lastModified: String?, fetchedAt: Date, finalURL: String, body: [UInt8]
        ) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.fetchedAt = fetchedAt
            self.finalURL = finalURL
            self.body = body
            bodyCheck = BodyCheck(body)
        }

        /// Decodes the metadata; the body is read from its own file.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            url = try container.decode(String.self, forKey: .url)
            etag = try container.decodeIfPresent(String.self, forKey: .etag)
            lastModified = try container.decodeIfPresent(String.self, forKey: .lastModified)
            fetchedAt = try container.decode(Date.self, forKey: .fetchedAt)
            finalURL = try container.decode(String.self, forKey: .finalURL)
            body = []
            if let bytes = try container.decodeIfPresent(Int.self, forKey: .bodyBytes),
                let hash = try container.decodeIfPresent(String.self, forKey: .bodyHash)
            {
                bodyCheck = BodyCheck(bytes: bytes, hash: hash)
            } else {
                bodyCheck = nil
            }
        }

        /// Encodes the metadata only.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(url, forKey: .url)
            try container.encodeIfPresent(etag, forKey: .etag)
            try container.encodeIfPresent(lastModified, forKey: .lastModified)
            try container.encode(fetchedAt, forKey: .fetchedAt)
            try container.encode(finalURL, forKey: .finalURL)
            try container.encodeIfPresent(bodyCheck?.bytes, forKey: .bodyBytes)
            try container.encodeIfPresent(bodyCheck?.hash, forKey: .bodyHash)
        }
    }

    /// A body's length and hash, kept in the metadata to tell a damaged body from the one downloaded.
    struct BodyCheck: Sendable, Hashable {
        /// The length in bytes.
        var bytes: Int
        /// The 64-bit FNV-1a hash of the bytes, in hex.
        var hash: String

        init(bytes: Int, hash: String) {
            self.bytes = bytes
            self.hash = hash
        }

        init(_ body: [UInt8]) {
            bytes = body.count
            hash = body.withUnsafeBufferPointer { FeedDiskCache.hexHash($0) }
        }
    }

    /// The folder holding the entries.
    public let directory: URL

    /// Makes a cache over a folder (created on the first write).
    /// - Parameter directory: the folder.
    public init(directory: URL) {
        self.directory = directory
    }

    /// The default folder: `$XDG_CACHE_HOME/orgsocial/feeds`, else `$HOME/.cache/orgsocial/feeds`; `nil`
    /// when neither variable holds an absolute path.
    /// - Parameter environment: the environment variables.
    /// - Returns: The folder, or `nil`.
    public static func defaultDirectory(environment: [String: String]) -> URL? {
        if let base = environment["XDG_CACHE_HOME"], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("orgsocial/feeds")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/orgsocial/feeds")
        }
        return nil
    }

    /// The entry for `url`, or `nil` when there is none or it cannot be read.
    /// - Parameter url: the requested URL.
    /// - Returns: The entry, or `nil`.
    public func entry(for url: String) -> Entry? {
        let key = Self.key(for: url)
        guard let metadata = try? Data(contentsOf: file(key, "json")),
            let decoded = try? Self.decoder.decode(Entry.self, from: metadata), decoded.url == url,
            let stored = decoded.bodyCheck, let body = try? Data(contentsOf: file(key, "org")),
            body.count == stored.bytes
        else { return nil }
        var entry = decoded
        entry.body = Array(body)
        // A body damaged in place (same length): a miss, so the feed is downloaded again in full.
        guard entry.bodyCheck == stored else { return nil }
        return entry
    }

    /// Stores an entry, replacing any older one. Failures are ignored: a cache that cannot be written
    /// only costs a full download next time.
    /// - Parameter entry: the entry.
    public func store(_ entry: Entry) {
        let key = Self.key(for: entry.url)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Self.replace(file(key, "org"), with: Data(entry.body))
            try Self.replace(file(key, "json"), with: Self.encoder.encode(entry))
        } catch {
            return
        }
    }

    /// Updates an entry's validators and fetch time after a `304` that changed them, keeping the body
    /// already stored (it has not changed, so it is not written again). Failures are ignored, as in
    /// ``store(_:)``.
    /// - Parameter entry: the entry; its body is not written.
    public func refresh(_ entry: Entry) {
        let key = Self.key(for: entry.url)
        var entry = entry
        // The stored body stays, and with it the length and hash recorded for it.
        entry.bodyCheck =
            (try? Data(contentsOf: file(key, "json")))
            .flatMap { try? Self.decoder.decode(Entry.self, from: $0) }?.bodyCheck
        guard let metadata = try? Self.encoder.encode(entry) else { return }
        try? Self.replace(file(key, "json"), with: metadata)
    }

    /// Writes `data` to a temporary file next to `destination` and renames it over `destination`, so a
    /// reader sees the old file or the new one, never half of one. Plain POSIX calls, because
    /// Foundation's `Data.write` calls `fsync` even without `.atomic` (see the type's note).
    /// - Throws: `CocoaError(.fileWriteUnknown)` when the file cannot be written or renamed.
    private static func replace(_ destination: URL, with data: Data) throws {
        let temporary = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        let closed = close(descriptor) == 0
        guard written, closed, rename(temporary.path, destination.path) == 0 else {
            unlink(temporary.path)
            throw CocoaError(.fileWriteUnknown)
        }
    }

    /// The file name stem for a URL: the 64-bit FNV-1a hash of its bytes, in hex.
    static func key(for url: String) -> String {
        var url = url
        return url.withUTF8 { hexHash($0) }
    }

    /// The 64-bit FNV-1a hash of `bytes`, in 16 hex digits.
    static func hexHash(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    private func file(_ key: String, _ ext: String) -> URL {
        directory.appendingPathComponent("\(key).\(ext)")
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }
}
