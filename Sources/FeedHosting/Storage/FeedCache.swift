import SystemSupport

/// The snapshots of the feeds served recently, keyed by feed path.
///
/// An entry is valid while a fresh `stat` of the file returns the status it was built from (same
/// device, inode, size, and modification and change times to the nanosecond); the node's own writes
/// replace the entry directly. The lock is held only to look up or store an entry, never during I/O or
/// hashing, and lookups share it.
final class FeedCache: Sendable {
    // A readers–writer lock rather than an actor: lookups are tiny and synchronous, and sit on the path
    // of every GET, where an actor hop would cost more than the lookup itself (see ReadMostly).
    private let entries = ReadMostly<[FeedPath: FeedSnapshot]>([:])

    /// The cached snapshot of `feed` if it was built from a file with `status`.
    func snapshot(of feed: FeedPath, matching status: FileStatus) -> FeedSnapshot? {
        entries.read { entries in
            guard let snapshot = entries[feed], snapshot.status == status else { return nil }
            return snapshot
        }
    }

    /// Stores `snapshot` as the current version of `feed`.
    func store(_ snapshot: FeedSnapshot, for feed: FeedPath) {
        entries.write { $0[feed] = snapshot }
    }

    /// Adds the gzip encoding to the cached snapshot of `feed`, if that is still the version it was made
    /// from.
    func storeGzip(_ gzipBytes: [UInt8], for feed: FeedPath, status: FileStatus) {
        entries.write { entries in
            guard entries[feed]?.status == status else { return }
            entries[feed]?.gzipBytes = gzipBytes
        }
    }

    /// Forgets `feed`.
    func remove(_ feed: FeedPath) {
        _ = entries.write { $0.removeValue(forKey: feed) }
    }
}
