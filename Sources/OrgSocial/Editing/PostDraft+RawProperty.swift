/// Setting a draft's properties by their Org names, as ``Feed/updatePost(id:_:)`` reads them.
extension PostDraft {
    /// Sets a property by name, on the typed field when it is a known one.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` when a known property's value does not
    ///   have its form (a reference without `#`, a group without a relay URL, …), rather than dropping it.
    mutating func setRawProperty(_ upper: String, value: String?) throws {
        let value = (value?.isEmpty ?? true) ? nil : value
        func typed<T>(_ parse: (String) -> T?, _ form: String) throws -> T? {
            guard let value else { return nil }
            guard let parsed = parse(value) else {
                throw OrgSocialError.invalidInput(field: ":\(upper):", value: value, reason: "it must be \(form).")
            }
            return parsed
        }
        switch upper {
        case "LANG": language = value
        case "TAGS": tags = value?.tokens() ?? []
        case "CLIENT": client = value
        case "REPLY_TO": replyTo = try typed(PostReference.init(parsing:), "<feed URL>#<post ID>")
        case "INCLUDE": include = try typed(PostReference.init(parsing:), "<feed URL>#<post ID>")
        case "POLL_END":
            pollEnd = try typed({ OrgTimestamp($0).isValid ? $0 : nil }, "a timestamp such as 2026-01-02T18:00:00+0100")
        case "POLL_OPTION": pollOption = value
        case "GROUP": group = try typed(GroupReference.init(parsing:), "<group name> <relay URL>")
        case "VISIBILITY": visibility = value.map(Visibility.init(rawValue:))
        case "MIGRATION": migration = try typed(Migration.init(parsing:), "<old feed URL> <new feed URL>")
        case "BOT": bot = try typed(BotPayload.init(parsing:), "<type> [parameter …]")
        case "MOOD": mood = value
        default:
            if let index = extraProperties.firstIndex(where: { $0.hasName(upper) }) {
                if let value {
                    extraProperties[index] = Property(name: upper, value: value)
                } else {
                    extraProperties.remove(at: index)
                }
            } else if let value {
                extraProperties.append(Property(name: upper, value: value))
            }
        }
    }
}
