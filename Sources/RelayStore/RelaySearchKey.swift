/// The row key of a post in the trigram index (`post_search`, migration 15): the minute of its instant
/// in the high bits, its row id in the low 32, so the index lists a term's posts newest first by itself.
///
/// A page of a term most posts hold is then its first few keys from the top, checked by `instr`, whatever
/// the age of the matches; with row ids as keys (crawl order, not time order), a term whose posts were all
/// older than the newest few thousand (`topic1` of the scale bench, 22 % of 10M posts) needed every match
/// sorted by date, over the search's 1 s budget. Within one minute keys follow row ids, so a page takes
/// every match from the minute of its last row on and sorts those exactly (``RelayQueries``).
///
/// Minutes count from 1900-01-01 and are clamped to 0...2³¹-1 (to the year 5983): posts outside share the
/// end minutes, which keeps the order (a minute never decreases as the instant grows) and only makes those
/// pages sort more. Row ids must stay below 2³² (four billion posts).
enum RelaySearchKey {
    /// Seconds from 1900-01-01 to 1970-01-01.
    static let epochOffset = 2_208_988_800
    /// The highest minute.
    static let maximumMinute = 0x7FFF_FFFF
    /// The bits of the row id.
    static let rowIDMask = 0xFFFF_FFFF

    /// The key of the post with row id `id` at `createdAt` (seconds since 1970).
    static func key(id: Int, createdAt: Double) -> Int {
        let minutes: Double = ((createdAt + Double(epochOffset)) / 60).rounded(.towardZero)
        let minute: Int = minutes.isNaN ? 0 : Int(Swift.max(0, Swift.min(Double(maximumMinute), minutes)))
        let shifted: Int = minute << 32
        return shifted | (id & rowIDMask)
    }

    /// ``key(id:createdAt:)`` in SQL, of the row `row` of `posts` (`new` and `old` in triggers).
    static func sql(_ row: String) -> String {
        "(max(0, min(\(maximumMinute), CAST((\(row).created_at + \(epochOffset)) / 60 AS INTEGER))) << 32 | \(row).id)"
    }

    /// The row id of the post whose key is the SQL expression `key`.
    static func rowID(_ key: String) -> String { "(\(key) & \(rowIDMask))" }

    /// The first key of the minute of `key`.
    static func minuteStart(of key: Int) -> Int {
        let minute: Int = key >> 32
        return minute << 32
    }
}
