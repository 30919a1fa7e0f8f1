import HTTPCore

/// One Org Social Host API account: a nick, the hash of its vfile token, and an optional redirect.
///
/// The account's feed is `<root>/<nick>/social.org`.
struct HostAccount: Sendable, Equatable, Codable {
    /// The nick, also the feed's folder name.
    var nick: String
    /// The hex SHA-256 of the vfile token; the token itself is not stored.
    var tokenSHA256: String
    /// The `ts` of the vfile, covered by its signature.
    var timestamp: Int
    /// Where the feed moved to (`POST /redirect`), or `nil`.
    var redirectURL: String?
    /// When the account was created, RFC 3339.
    var created: String

    enum CodingKeys: String, CodingKey {
        case nick
        case tokenSHA256 = "token-sha256"
        case timestamp = "ts"
        case redirectURL = "redirect"
        case created
    }

    /// The account's feed.
    var feed: FeedPath? { FeedPath(folder: nick) }

    /// The member list in the order the accounts file uses.
    var json: JSONValue {
        .object([
            ("nick", .string(nick)), ("token-sha256", .string(tokenSHA256)), ("ts", .int(timestamp)),
            ("redirect", .string(orNull: redirectURL)), ("created", .string(created)),
        ])
    }
}
