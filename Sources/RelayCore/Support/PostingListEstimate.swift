/// How many posts a list of post row ids in ascending order holds (a trigram's posting list, a tag's
/// rows), estimated from its first ones: the list is read up to a limit, which costs the same at any size
/// of the relay, and a list that reaches the limit is scaled by how far into the row ids it got. A list
/// whose first 20,000 posts end at a tenth of the row ids holds about 200,000.
///
/// The estimate steers how a query is run (which trigrams to ask the index for, how many of the newest
/// posts to walk), never the answer.
package enum PostingListEstimate {
    /// The posts of a list read up to `limit` entries that gave `counted` of them, the last at row id
    /// `reached`.
    ///
    /// - Parameters:
    ///   - counted: the entries read (at most `limit`).
    ///   - reached: the row id of the last one read.
    ///   - lastRow: the highest row id of all posts.
    ///   - limit: where the reading stopped.
    /// - Returns: `counted` below the limit (the list is all read); else `counted` scaled by
    ///   `lastRow ÷ reached`, never less than `counted`.
    package static func posts(counted: Int, reached: Int, lastRow: Int, limit: Int) -> Int {
        guard counted >= limit, reached > 0, lastRow > reached else { return counted }
        let scaled = (Double(counted) * Double(lastRow) / Double(reached)).rounded(.up)
        return scaled < Double(Int.max) ? Int(scaled) : .max
    }
}
