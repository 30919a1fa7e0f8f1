import Gzip

/// The feeds under the node's root: cached reads, and writes serialised per feed.
///
/// Every writer of a feed file (PUT, Host API upload, signup, delete) goes through ``withWriteLock(_:_:)``
/// and writes with ``replace(_:with:)`` or ``remove(_:)``, which update the cache at once; readers call
/// ``snapshot(of:)``, which costs one `stat` when the file has not changed.
struct FeedStore: Sendable {
    /// The root folder.
    let directory: FeedDirectory
    private let cache = FeedCache()
    private let locks = KeyedLock<FeedPath>()
    /// Feeds smaller than this are never gzipped: the gzip header and trailer would eat the gain.
    static let minimumGzipSize = 256

    init(directory: FeedDirectory) {
        self.directory = directory
    }

    /// The current version of `feed`, or `nil` if it does not exist.
    ///
    /// - Throws: ``FeedDirectory/AccessError`` if the file exists but cannot or may not be served.
    func snapshot(of feed: FeedPath) throws(FeedDirectory.AccessError) -> FeedSnapshot? {
        guard let status = try directory.status(of: feed) else { return nil }
        if let cached = cache.snapshot(of: feed, matching: status) {
            return cached
        }
        guard let (bytes, readStatus) = try directory.read(feed) else { return nil }
        let snapshot = FeedSnapshot(bytes: bytes, status: readStatus)
        cache.store(snapshot, for: feed)
        return snapshot
    }

    /// `snapshot` with its gzip encoding filled in (compressed once per version, then cached).
    func withGzip(_ snapshot: FeedSnapshot, of feed: FeedPath) -> FeedSnapshot {
        guard snapshot.gzipBytes == nil else { return snapshot }
        var compressed = snapshot
        // Compression only fails when zlib cannot allocate its state; serve the identity encoding then.
        guard let gzipBytes = try? GzipCodec.compress(snapshot.bytes) else { return snapshot }
        compressed.gzipBytes = gzipBytes
        cache.storeGzip(gzipBytes, for: feed, status: snapshot.status)
        return compressed
    }

    /// Runs `body` while no other writer of `feed` runs.
    ///
    /// - Parameters:
    ///   - feed: The feed to lock.
    ///   - body: Reads the current version, checks preconditions, and writes.
    /// - Returns: What `body` returns.
    func withWriteLock<Result: Sendable>(
        _ feed: FeedPath,
        _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await locks.withLock(feed, body)
    }

    /// Replaces `feed` with `bytes` atomically and caches the new version. Call it inside
    /// ``withWriteLock(_:_:)``.
    ///
    /// - Returns: The new version.
    /// - Throws: ``FeedDirectory/AccessError``; the old file is then unchanged.
    func replace(_ feed: FeedPath, with bytes: [UInt8]) throws(FeedDirectory.AccessError) -> FeedSnapshot {
        do {
            let status = try directory.write(bytes, to: feed)
            let snapshot = FeedSnapshot(bytes: bytes, status: status)
            cache.store(snapshot, for: feed)
            return snapshot
        } catch {
            cache.remove(feed)
            throw error
        }
    }

    /// Deletes `feed` and forgets its cached version. Call it inside ``withWriteLock(_:_:)``.
    ///
    /// - Throws: ``FeedDirectory/AccessError`` if the file cannot be removed.
    func remove(_ feed: FeedPath) throws(FeedDirectory.AccessError) {
        cache.remove(feed)
        try directory.remove(feed)
    }
}
