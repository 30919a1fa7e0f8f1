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
