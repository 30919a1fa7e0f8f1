import RelayCore
import SQLiteStore
import Synchronization

/// How many posts hold each trigram of the full-text index, remembered across searches, so a search can
/// ask the index for its rarest trigrams only (a common trigram such as `top` is in nearly every post, and
/// making FTS5 intersect its whole posting list costs more than the rest of the search).
///
/// The counts steer speed only, never the answer: every candidate is checked against the whole query by
/// `instr`. So a count may be a little stale; it is read again once older than ``maximumAge``, and the
/// table starts over empty when it holds ``capacity`` trigrams.
///
/// A count stops at ``countLimit`` (20,000 unless told): it is read by walking the trigram's posting list
/// through the index up to that many posts, which costs the same at any size of the relay. (FTS5's
/// vocabulary table, `fts5vocab`, gives the exact count, but by reading the whole list: a trigram of nearly
/// every post took 22 ms at a million posts, and a query has up to 16 of them.) Past the limit the count is
/// estimated from how far into the index's keys the walk reached (the list is in key order, which is time
/// order, ``RelaySearchKey``): a trigram whose first 20,000 posts end a tenth of the way from the oldest
/// post's key to the newest's is in about 200,000. The estimate keeps the order
/// between common trigrams, which a flat limit lost: at 10M posts every trigram of `feed 1234 about` was
/// past the limit, so the search asked the index for `fee`, `eed` and `ed ` (9M posts each) and ran out of
/// its 1 s, where `123` and `234` (about 50,000 each) answered in milliseconds.
final class RelayTrigramFrequencies: Sendable {
    /// The most trigrams remembered.
    static let capacity = 20_000
    /// Where a count stops by default.
    static let defaultCountLimit = 20_000

    /// Where a count stops: a trigram counted this many times is in at least this many posts, and its
    /// count is an estimate.
    let countLimit: Int
    /// How long a count is trusted.
    static let maximumAge: Duration = .seconds(600)

    private let counts = Mutex<[String: (posts: Int, readAt: ContinuousClock.Instant)]>([:])

    /// An empty table.
    /// - Parameter countLimit: where a count stops.
    init(countLimit: Int = defaultCountLimit) {
        self.countLimit = countLimit
    }

    /// The number of posts holding each of `trigrams`, exact below ``countLimit`` and estimated (never
    /// below it) from there, reading the unknown or stale ones on `db` (a connection of the relay's
    /// database).
    ///
    /// - Throws: `StoreError` when the vocabulary cannot be read.
    func postCounts(of trigrams: [String], on db: Connection, now: ContinuousClock.Instant = .now) throws
        -> [String: Int]
    {
        var known: [String: Int] = [:]
        var missing: [String] = []
        counts.withLock { counts in
            for trigram in trigrams {
                if let entry = counts[trigram], now - entry.readAt < Self.maximumAge {
                    known[trigram] = entry.posts
                } else {
                    missing.append(trigram)
                }
            }
        }
        guard !missing.isEmpty else { return known }
        // The index's keys grow with the posts' instants (``RelaySearchKey``): a list is read from the oldest
        // key up, and how far it got is measured from the first possible key to the last.
        let range = try db.queryOne(
            sql: "SELECT (SELECT min(created_at) FROM posts), (SELECT max(created_at) FROM posts)")
        let oldest: Double? = try range?.value(at: 0)
        let newest: Double? = try range?.value(at: 1)
        let first = RelaySearchKey.key(id: 0, createdAt: oldest ?? 0)
        let last = RelaySearchKey.key(id: RelaySearchKey.rowIDMask, createdAt: newest ?? 0)
        for trigram in missing {
            let row = try db.queryOne(
                sql:
                    "SELECT count(*), max(rowid) FROM (SELECT rowid FROM post_search WHERE post_search MATCH ? LIMIT ?)",
                arguments: [RelayQueries.phrase(trigram), countLimit])
            let counted: Int = try row?.value(at: 0) ?? 0
            let reached: Int = try row?.value(at: 1) ?? first
            known[trigram] = PostingListEstimate.posts(
                counted: counted, reached: reached - first + 1, lastRow: last - first + 1, limit: countLimit)
        }
        counts.withLock { counts in
            if counts.count + missing.count > Self.capacity {
                counts = [:]
            }
            for trigram in missing {
                counts[trigram] = (known[trigram] ?? 0, now)
            }
        }
        return known
    }
}
