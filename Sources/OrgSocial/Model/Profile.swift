/// The header of a feed: its `#+KEY: value` keywords before `* Posts` (spec §3).
///
/// Every keyword line is kept in ``keywords`` in file order, unknown ones included. The typed
/// properties read them with the spec's rules: ASCII case ignored, empty values absent, first
/// occurrence wins for single-valued keys, repeated keys collected for `LINK`, `FOLLOW`, `GROUP` and
/// `CONTACT`.
public struct Profile: Sendable, Hashable {
    /// Every keyword line of the header, in file order.
    public let keywords: [Property]
    let locations: [EntryLocation]

    init(keywords: [Property], locations: [EntryLocation]) {
        self.keywords = keywords
        self.locations = locations
    }

    /// The first non-empty value of a keyword (ASCII case ignored).
    /// - Parameter name: the keyword without `#+`, e.g. `TITLE`.
    /// - Returns: the value, or `nil` when absent or empty.
    public func value(of name: String) -> String? { keywords.firstValue(name) }

    /// Every non-empty value of a keyword, in file order.
    /// - Parameter name: the keyword without `#+`, e.g. `LINK`.
    /// - Returns: The values; empty when the keyword is absent.
    public func values(of name: String) -> [String] { keywords.allValues(name) }

    /// `#+TITLE`: the feed's title (required).
    public var title: String? { value(of: "TITLE") }
    /// `#+NICK`: the display nickname (required, no spaces).
    public var nick: String? { value(of: "NICK") }
    /// `#+DESCRIPTION`.
    public var description: String? { value(of: "DESCRIPTION") }
    /// `#+AVATAR`: URL of a square image.
    public var avatar: String? { value(of: "AVATAR") }
    /// `#+LINK` lines: profile URLs.
    public var links: [String] { values(of: "LINK") }
    /// `#+LOCATION`.
    public var location: String? { value(of: "LOCATION") }
    /// `#+BIRTHDAY` as written (`YYYY-MM-DD` when valid).
    public var birthday: String? { value(of: "BIRTHDAY") }
    /// `#+LANGUAGE`: space-separated language codes.
    public var languages: [String] { value(of: "LANGUAGE")?.tokens() ?? [] }
    /// `#+PINNED`: the pinned post's ID.
    public var pinned: String? { value(of: "PINNED") }
    /// `#+FOLLOW` lines: followed feeds.
    public var follows: [Follow] { values(of: "FOLLOW").compactMap(Follow.init(value:)) }
    /// `#+GROUP` lines: joined relay groups (lines without a relay URL are left out).
    public var groups: [GroupReference] { values(of: "GROUP").compactMap(GroupReference.init(parsing:)) }
    /// `#+CONTACT` lines: contact URIs.
    public var contacts: [String] { values(of: "CONTACT") }

    /// The keywords the spec defines; others are kept but have no meaning to Org Social.
    public static let knownKeywords: [String] = [
        "TITLE", "NICK", "DESCRIPTION", "AVATAR", "LINK", "LOCATION", "BIRTHDAY", "LANGUAGE", "PINNED",
        "CONTACT", "GROUP", "FOLLOW",
    ]

    /// Keywords that may appear on several lines.
    public static let repeatableKeywords: Set<String> = ["LINK", "FOLLOW", "GROUP", "CONTACT"]
}
