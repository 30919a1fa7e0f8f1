/// Who sees a status. Values a server invents (`local`, `mutuals_only`, `list:…`) are kept, not refused.
public enum Visibility: Sendable, Hashable, Codable, RawRepresentable {
    /// Everyone, on public timelines.
    case `public`
    /// Everyone, kept off public timelines.
    case unlisted
    /// Followers only.
    case `private`
    /// Mentioned accounts only.
    case direct
    /// Any other value, as the server wrote it.
    case other(String)

    /// The value for `rawValue`.
    /// - Parameter rawValue: the API's string.
    public init(rawValue: String) {
        switch rawValue {
        case "public": self = .public
        case "unlisted": self = .unlisted
        case "private": self = .private
        case "direct": self = .direct
        default: self = .other(rawValue)
        }
    }

    /// The API's string.
    public var rawValue: String {
        switch self {
        case .public: "public"
        case .unlisted: "unlisted"
        case .private: "private"
        case .direct: "direct"
        case .other(let value): value
        }
    }

    /// Decodes the string.
    /// - Parameter decoder: the decoder.
    /// - Throws: a decoding error when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the string.
    /// - Parameter encoder: the encoder.
    /// - Throws: an encoding error from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
