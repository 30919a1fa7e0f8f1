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
