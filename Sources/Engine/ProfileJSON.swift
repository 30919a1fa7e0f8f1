import EngineProtocol
import HTTPCore
import OrgSocial

/// A profile as the protocol shows it (ProfileDTO, engine-protocol.md §4).
enum ProfileJSON {
    /// The own feed's profile.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - feedURL: its URL.
    /// - Returns: the JSON object.
    static func own(_ feed: Feed, feedURL: String) -> JSONValue {
        let profile = feed.profile
        var members: [(String, JSONValue)] = [("feed", .string(feedURL))]
        let optional: [(String, String?)] = [
            ("nick", profile.nick), ("title", profile.title), ("description", profile.description),
            ("avatar", profile.avatar), ("location", profile.location), ("birthday", profile.birthday),
            ("pinned", profile.pinned),
        ]
        for (key, value) in optional { if let value, !value.isEmpty { members.append((key, .string(value))) } }
        let follows: [JSONValue] = profile.follows.map { follow in
            var fields: [(String, JSONValue)] = [("feed", .string(follow.url))]
            if let label = follow.label { fields.append(("nick", .string(label))) }
            return .object(fields)
        }
        let groups: [JSONValue] = profile.groups.map {
            .object([("name", .string($0.name)), ("relay", .string($0.relayURL))])
        }
        members += [
            ("links", .array(profile.links.map(JSONValue.string))),
            ("languages", .array(profile.languages.map(JSONValue.string))),
            ("contacts", .array(profile.contacts.map(JSONValue.string))), ("follows", .array(follows)),
            ("followCount", .int(follows.count)), ("groups", .array(groups)),
        ]
        return .object(members)
    }

    /// A mirror's profile (mirror-api.md §3.9): its `url` replaces `feed`.
    /// - Parameters:
    ///   - fields: the profile's JSON members.
    ///   - feed: the feed asked about.
    /// - Returns: the JSON object.
    static func mirror(_ fields: [String: RPCValue], feed: String) -> JSONValue {
        func string(_ key: String) -> String? {
            if case .string(let value)? = fields[key] { return value }
            return nil
        }
        func strings(_ key: String) -> [JSONValue] {
            guard case .array(let values)? = fields[key] else { return [] }
            return values.compactMap { if case .string(let value) = $0 { .string(value) } else { nil } }
        }
        var members: [(String, JSONValue)] = [("feed", .string(string("url") ?? feed))]
        for key in ["nick", "title", "description", "avatar", "location", "birthday", "pinned"] {
            if let value = string(key) { members.append((key, .string(value))) }
        }
        var follows: [JSONValue] = []
        if case .array(let entries)? = fields["follows"] {
            for case .object(let follow) in entries {
                guard case .string(let url)? = follow["url"] else { continue }
                var entry: [(String, JSONValue)] = [("feed", .string(url))]
                if case .string(let name)? = follow["name"] { entry.append(("nick", .string(name))) }
                follows.append(.object(entry))
            }
        }
        var groups: [JSONValue] = []
        if case .array(let entries)? = fields["groups"] {
            for case .string(let group) in entries {
                let space = group.lastIndex(of: " ")
                let name = space.map { String(group[..<$0]) } ?? group
                let relay = space.map { String(group[group.index(after: $0)...]) } ?? group
                groups.append(.object([("name", .string(name)), ("relay", .string(relay))]))
            }
        }
        members += [
            ("links", .array(strings("links"))), ("languages", .array(strings("languages"))),
            ("contacts", .array(strings("contacts"))), ("follows", .array(follows)),
            ("followCount", .int(follows.count)), ("groups", .array(groups)),
        ]
        for key in ["postCount", "followerCount", "followingCount"] {
            if case .int(let value)? = fields[key] { members.append((key, .int(value))) }
        }
        return .object(members)
    }
}
