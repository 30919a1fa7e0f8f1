/// The cursors of a page request; all exclusive. Page forward with ``minID`` (the page just above it),
/// never ``sinceID`` (the newest page above it, which leaves a gap after a burst; mastodon-api.md §0.1).
public struct PageRequest: Sendable, Hashable {
    /// Older than this ID.
    public var maxID: String?
    /// Just newer than this ID.
    public var minID: String?
    /// The newest newer than this ID.
    public var sinceID: String?
    /// Items per page (the server caps it, 40 on Mastodon).
    public var limit: Int?

    /// Makes a request.
    /// - Parameters:
    ///   - maxID: older than.
    ///   - minID: just newer than.
    ///   - sinceID: newest newer than.
    ///   - limit: page size.
    public init(maxID: String? = nil, minID: String? = nil, sinceID: String? = nil, limit: Int? = nil) {
        self.maxID = maxID
        self.minID = minID
        self.sinceID = sinceID
        self.limit = limit
    }

    /// The query items.
    var query: [(String, String)] {
        var items: [(String, String)] = []
        if let maxID { items.append(("max_id", maxID)) }
        if let minID { items.append(("min_id", minID)) }
        if let sinceID { items.append(("since_id", sinceID)) }
        if let limit { items.append(("limit", String(limit))) }
        return items
    }
}
