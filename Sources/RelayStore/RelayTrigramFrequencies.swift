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
/// A count stops at ``countLimit`` (20,000 unless told): it is read by walking the trigram's posting list through the index up
/// to that many posts, which costs the same at any size of the relay. (FTS5's vocabulary table,
/// `fts5vocab`, gives the exact count, but by reading the whole list: a trigram of nearly every post took
/// 22 ms at a million posts, and a query has up to 16 of them.) Past the limit the exact number does not
/// matter: the rarest trigrams are what the search wants.
final class RelayTrigramFrequencies: Sendable {
    /// The most trigrams remembered.
    static let capacity = 20_000
    /// Where a count stops by default.
    static let defaultCountLimit = 20_000

    /// Where a count stops: a trigram counted this many times is in at least this many posts.
    let countLimit: Int
    /// How long a count is trusted.
    static let maximumAge: Duration = .seconds(600)

    private let counts = Mutex<[String: (posts: Int, readAt: ContinuousClock.Instant)]>([:])

    /// An empty table.
    /// - Parameter countLimit: where a count stops.
    init(countLimit: Int = defaultCountLimit) {
        self.countLimit = countLimit
    }

    /// The number of posts holding each of `trigrams`, up to ``countLimit``, reading the unknown or stale
    /// ones on `db` (a connection of the relay's database).
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
        for trigram in missing {
            known[trigram] =
                try db.queryOne(
                    sql: "SELECT count(*) FROM (SELECT rowid FROM post_search WHERE post_search MATCH ? LIMIT ?)",
                    arguments: [RelayQueries.phrase(trigram), countLimit]
                )?.value(at: 0) ?? 0
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
