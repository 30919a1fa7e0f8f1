/// One `#+FOLLOW:` line: an optional private label and the followed feed's URL (spec §3).
///
/// The URL is the **last** whitespace-separated token and the label everything before it, so labels
/// with spaces, quotes or parentheses work (spec §15 case 21).
public struct Follow: Sendable, Hashable, Codable {
    /// The personal label, if any (not the followed person's `#+NICK`).
    public let label: String?
    /// The followed feed's URL, exactly as written.
    public let url: String

    /// Makes a follow entry.
    /// - Parameters:
    ///   - url: the followed feed's URL.
    ///   - label: an optional personal label.
    public init(url: String, label: String? = nil) {
        self.url = url
        self.label = (label?.isEmpty ?? true) ? nil : label
    }

    /// Reads the value of a `#+FOLLOW:` line; `nil` when it is empty.
    init?(value: String) {
        let trimmed = value.trimmingSpacesAndTabs()
        guard !trimmed.isEmpty else { return nil }
        let (head, last) = splitLastToken(trimmed)
        self.init(url: last, label: head)
    }

    /// The value as it is written after `#+FOLLOW: `.
    var value: String { label.map { "\($0) \(url)" } ?? url }
}

/// A group on a relay: `<group name> <relay URL>`, from `#+GROUP:` or `:GROUP:` (spec §3, §7).
public struct GroupReference: Sendable, Hashable, Codable {
    /// The group's name; may contain spaces.
    public let name: String
    /// The relay's URL (the last token).
    public let relayURL: String

    /// Makes a group reference.
    /// - Parameters:
    ///   - name: the group's name, as the relay lists it.
    ///   - relayURL: the relay that hosts the group.
    public init(name: String, relayURL: String) {
        self.name = name
        self.relayURL = relayURL
    }

    /// Reads `<name> <relay URL>`; `nil` unless there are at least two tokens.
    public init?(parsing value: String) {
        let trimmed = value.trimmingSpacesAndTabs()
        let (head, last) = splitLastToken(trimmed)
        guard let name = head, !name.isEmpty, !last.isEmpty else { return nil }
        self.init(name: name, relayURL: last)
    }

    /// The group's slug as relays match it: lower case, spaces turned into `-`.
    public var slug: String {
        name.lowercased().tokens().joined(separator: "-")
    }

    /// The value as written: `<name> <relay URL>`.
    public var value: String { "\(name) \(relayURL)" }
}

/// A mention in a post body: `[[org-social:URL][name]]` or `[[org-social:URL]]` (spec §7, §15 case 39).
public struct Mention: Sendable, Hashable, Codable {
    /// The mentioned feed's URL.
    public let feedURL: String
    /// The link description (usually the nick), or `nil` for a bare link.
    public let name: String?

    /// Makes a mention.
    /// - Parameters:
    ///   - feedURL: the mentioned feed's URL.
    ///   - name: the text shown for it.
    public init(feedURL: String, name: String?) {
        self.feedURL = feedURL
        self.name = name
    }
}

/// A migration announcement: `:MIGRATION: <old URL> <new URL>` (spec §7).
public struct Migration: Sendable, Hashable, Codable {
    /// The URL the feed moved away from.
    public let oldURL: String
    /// The URL the feed lives at now.
    public let newURL: String

    /// Makes a migration value.
    /// - Parameters:
    ///   - oldURL: the previous feed URL.
    ///   - newURL: the new feed URL.
    public init(oldURL: String, newURL: String) {
        self.oldURL = oldURL
        self.newURL = newURL
    }

    /// Reads `<old> <new>`; `nil` unless there are exactly two tokens.
    public init?(parsing value: String) {
        let parts = value.tokens()
        guard parts.count == 2 else { return nil }
        self.init(oldURL: parts[0], newURL: parts[1])
    }
}

/// A bot payload: `:BOT: <type> [param …]` (spec §7, since 1.7).
public struct BotPayload: Sendable, Hashable, Codable {
    /// The bot type (first token).
    public let type: String
    /// The remaining tokens.
    public let parameters: [String]

    /// Makes a bot payload.
    /// - Parameters:
    ///   - type: the bot type, e.g. `chess`.
    ///   - parameters: the data tokens.
    public init(type: String, parameters: [String]) {
        self.type = type
        self.parameters = parameters
    }

    /// Reads `<type> [param …]`; `nil` when empty.
    public init?(parsing value: String) {
        let parts = value.tokens()
        guard let first = parts.first else { return nil }
        self.init(type: first, parameters: Array(parts.dropFirst()))
    }
}

/// The display audience of a post (spec §7 "Visibility"). Only a hint, never privacy.
public enum Visibility: Sendable, Hashable, Codable {
    /// Everyone (the default).
    case `public`
    /// Only the author and the feeds mentioned in the body.
    case mention
    /// A value the spec does not define; readers treat it as public (spec §15 case 40).
    case unknown(String)

    /// Reads a `:VISIBILITY:` value (case-sensitive, as the spec writes it).
    public init(rawValue: String) {
        switch rawValue {
        case "public": self = .public
        case "mention": self = .mention
        default: self = .unknown(rawValue)
        }
    }

    /// The value as written.
    public var rawValue: String {
        switch self {
        case .public: "public"
        case .mention: "mention"
        case .unknown(let value): value
        }
    }

    /// Whether the post is restricted to mentioned feeds.
    public var isMentionOnly: Bool { self == .mention }

    /// Decodes the value from its JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the value as its JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// Splits `a b c` into (`a b`, `c`); (nil, text) when there is one token.
func splitLastToken(_ text: String) -> (head: String?, last: String) {
    let trimmed = text.trimmingSpacesAndTabs()
    guard let split = trimmed.lastIndex(where: { $0 == " " || $0 == "\t" }) else { return (nil, trimmed) }
    let head = String(trimmed[..<split]).trimmingSpacesAndTabs()
    let last = String(trimmed[trimmed.index(after: split)...])
    return (head.isEmpty ? nil : head, last)
}
