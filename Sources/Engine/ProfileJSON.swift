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
}
