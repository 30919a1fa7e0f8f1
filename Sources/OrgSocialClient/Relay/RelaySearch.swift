import Foundation

/// What to search for (§2.11).
public enum RelaySearchQuery: Sendable, Hashable {
    /// Text in a post's content or tags (`?q=`).
    case text(String)
    /// A whole tag (`?tag=`).
    case tag(String)
}

/// One page of search results (§2.11).
public struct RelaySearchPage: Sendable, Hashable {
    /// The matching post URLs, newest first.
    public var posts: [String]
    /// How many match in all; an estimate when ``totalIsEstimate`` (our relay counts exactly up to 10,000
    /// matches and estimates beyond).
    public var total: Int
    /// Whether ``total`` is an estimate (`meta.totalIsEstimate`; never set by the reference relay).
    public var totalIsEstimate: Bool = false
    /// This page's number (from 1).
    public var page: Int
    /// The page size.
    public var perPage: Int
    /// Whether a later page exists.
    public var hasNext: Bool
    /// Whether an earlier page exists.
    public var hasPrevious: Bool

    struct Meta: Decodable {
        var total: Int?
        var page: Int?
        var perPage: Int?
        var hasNext: Bool?
        var hasPrevious: Bool?
        var totalIsEstimate: Bool?
    }
}
