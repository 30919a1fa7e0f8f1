/// How many posts a list of post keys in ascending order holds (a tag's rows by row id, a trigram's
/// posting list by the index's time keys), estimated from its first ones: the list is read up to a limit,
/// which costs the same at any size of the relay, and a list that reaches the limit is scaled by how far
/// into the keys it got. A list whose first 20,000 posts end a tenth of the way holds about 200,000.
///
/// The estimate steers how a query is run (which trigrams to ask the index for, how many of the newest
/// posts to walk), never the answer.
package enum PostingListEstimate {
    /// The posts of a list read up to `limit` entries that gave `counted` of them, the last at key
    /// `reached`.
    ///
    /// - Parameters:
    ///   - counted: the entries read (at most `limit`).
    ///   - reached: the key of the last one read, counted from 1 at the first possible key.
    ///   - lastRow: the last possible key, counted the same way (the highest row id of all posts).
    ///   - limit: where the reading stopped.
    /// - Returns: `counted` below the limit (the list is all read); else `counted` scaled by
    ///   `lastRow ÷ reached`, never less than `counted`.
    package static func posts(counted: Int, reached: Int, lastRow: Int, limit: Int) -> Int {
        guard counted >= limit, reached > 0, lastRow > reached else { return counted }
        let scaled = (Double(counted) * Double(lastRow) / Double(reached)).rounded(.up)
        return scaled < Double(Int.max) ? Int(scaled) : .max
    }
}
