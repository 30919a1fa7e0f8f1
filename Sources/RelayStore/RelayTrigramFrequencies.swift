import SQLiteStore
import Synchronization

/// How many posts hold each trigram of the full-text index, remembered across searches, so a search can
/// ask the index for its rarest trigrams only (a common trigram such as `top` is in nearly every post, and
/// making FTS5 intersect its whole posting list costs more than the rest of the search).
///
/// The counts steer speed only, never the answer: every candidate is checked against the whole query by
/// `instr`. So a count may be a little stale; it is read again from FTS5's vocabulary table
/// (`fts5vocab`, one row per trigram) once older than ``maximumAge``, and the table starts over empty when
/// it holds ``capacity`` trigrams.
final class RelayTrigramFrequencies: Sendable {
    /// The most trigrams remembered.
    static let capacity = 20_000
    /// How long a count is trusted.
    static let maximumAge: Duration = .seconds(600)

    private let counts = Mutex<[String: (posts: Int, readAt: ContinuousClock.Instant)]>([:])

    /// An empty table.
    init() {}

    /// The number of posts holding each of `trigrams`, reading the unknown or stale ones on `db` (a
    /// connection of the relay's database).
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
        try db.execute(
            sql: "CREATE VIRTUAL TABLE IF NOT EXISTS temp.post_search_vocab USING fts5vocab(main, post_search, row)")
        for trigram in missing {
            known[trigram] =
                try db.queryOne(sql: "SELECT doc FROM temp.post_search_vocab WHERE term = ?", arguments: [trigram])?
                .value(at: 0) ?? 0
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
