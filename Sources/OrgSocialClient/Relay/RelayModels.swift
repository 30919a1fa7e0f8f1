import Foundation

// The values a relay answers with (`relay-api.md` §2). All decode leniently: unknown keys are ignored,
// optional parts may be missing, and lists that are missing read as empty.

extension KeyedDecodingContainer {
    /// The value at `key`, or `fallback` when it is missing, `null` or of another type.
    func lenient<Value: Decodable>(_ key: Key, _ fallback: Value) -> Value {
        ((try? decodeIfPresent(Value.self, forKey: key)) ?? nil) ?? fallback
    }

    /// The value at `key`, or `nil` when it is missing, `null` or of another type.
    func optional<Value: Decodable>(_ key: Key) -> Value? {
        (try? decodeIfPresent(Value.self, forKey: key)) ?? nil
    }
}

/// One entry of `_links`: where an endpoint is and how to call it.
public struct RelayLink: Sendable, Hashable, Decodable {
    /// The path, possibly with placeholders (`/mentions/?feed={feed_url}`).
    public var href: String
    /// The method (`GET`, `POST`), if given.
    public var method: String?
    /// Whether `href` holds placeholders.
    public var templated: Bool
    /// A description, if given.
    public var description: String?

    private enum CodingKeys: String, CodingKey { case href, method, templated, description }

    /// Decodes a link.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `href` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        href = try container.decode(String.self, forKey: .href)
        method = container.optional(.method)
        templated = container.lenient(.templated, false)
        description = container.optional(.description)
    }
}

/// The relay's index (`GET /`, `relay-api.md` §2.1).
public struct RelayIndex: Sendable, Hashable {
    /// The relay's name, e.g. "Org Social Relay".
    public var name: String?
    /// Its description.
    public var description: String?
    /// Its links by relation name (`feeds`, `mentions`, `search`, …).
    public var links: [String: RelayLink]

    struct Info: Decodable {
        var name: String?
        var description: String?
    }
}

/// The answer to registering a feed (`POST /feeds/`, §2.3).
public struct RelayFeedRegistration: Sendable, Hashable {
    /// The feed URL as the relay echoed it.
    public var feed: String
    /// Whether the relay added it now (201) rather than knowing it already (200).
    public var isNew: Bool

    /// Makes a registration.
    /// - Parameters:
    ///   - feed: the feed URL.
    ///   - isNew: whether it was added now.
    public init(feed: String, isNew: Bool) {
        self.feed = feed
        self.isNew = isNew
    }
}
