import OrgSocial

/// `orgsocial edit --file <file> --id <id> [--text <text>] [--set KEY=VALUE ...] [--unset KEY ...]`.
struct EditCommand: ParsableCommand {
    /// `--set KEY=VALUE`.
    static let setOption = OptionDefinition.value(
        "set", valueName: "key=value", help: "Set a property, e.g. LANG=en or MOOD=🎉; repeat for several.",
        isRepeatable: true)

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "edit",
            abstract: "Change a post's text or properties, keeping its ID.",
            discussion: """
                Only what changes is rewritten; the rest of the file stays byte for byte. A change that \
                would make the feed invalid (e.g. --set REPLY_TO=nonsense) is refused.
                """,
            options: [
                FeedFileOptions.fileOption,
                .value("id", help: "The post's ID, exactly as written in the file.", isRequired: true),
                .value("text", help: "The new text (Org markup); '-' reads it from standard input."),
                setOption,
                .value(
                    "unset", valueName: "key", help: "Remove a property, e.g. MOOD; repeat for several.",
                    isRepeatable: true),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--id`.
    var id: String
    /// `--text`.
    var text: String?
    /// `--set` pairs, upper-cased keys, in order.
    var assignments: [(key: String, value: String)]
    /// `--unset` keys, upper-cased.
    var removals: [String]

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        id = try arguments.requiredValue("id")
        text = arguments.value("text")
        assignments = try arguments.values("set").map { pair in
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw CLIError.invalidValue(
                    value: pair, option: Self.setOption.synopsis, reason: "Write KEY=VALUE, e.g. LANG=en.")
            }
            let key = String(pair[..<equals]).uppercased()
            let value = String(pair[pair.index(after: equals)...])
            // `KEY=` would silently leave the property as it is: removing is --unset's job.
            guard !value.allSatisfy({ $0 == " " || $0 == "\t" }) else {
                throw CLIError.invalidValue(
                    value: pair, option: Self.setOption.synopsis,
                    reason: "Give a value after '=', e.g. \(key)=en; to remove the property, use '--unset \(key)'.")
            }
            return (key, value)
        }
        removals = arguments.values("unset").map { $0.uppercased() }
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        if text == nil, assignments.isEmpty, removals.isEmpty {
            throw CLIError.validation("Nothing to change: give '--text', '--set KEY=VALUE' or '--unset KEY'.")
        }
        let keys = assignments.map(\.key) + removals
        if keys.contains("ID") {
            throw CLIError.validation(
                "A post's ID never changes (replies point to it); delete the post and post again instead.")
        }
        if let key = keys.first(where: { key in keys.filter { $0 == key }.count > 1 }) {
            throw CLIError.validation("The property '\(key)' is changed more than once; give it once.")
        }
    }

    func run(in context: CommandContext) async throws {
        let newText = try text.map { try TextInput.resolve($0, in: context) }
        if let newText, newText.allSatisfy(\.isWhitespace) {
            throw CLIError.validation(
                "The new text is empty; give some text, or delete the post with 'orgsocial delete'.")
        }
        let address = try feedOptions.address(ofPost: id, in: context)
        let path = try feedOptions.path(in: context)
        try await FeedChange.apply(
            to: path, publishing: publishing, feedURLOption: feedOptions.feedURLOption,
            in: context
        ) { feed in
            _ = try feed.existingPost(id: id)
            if let newText { try feed.replaceBody(ofPost: id, with: newText) }
            for (key, value) in assignments {
                do {
                    try feed.setProperty(key, to: value, inPost: id)
                } catch OrgSocialError.invalidInput(_, _, let reason) {
                    throw CLIError.invalidValue(
                        value: "\(key)=\(value)", option: Self.setOption.synopsis,
                        reason: "\(key) is not valid here: \(reason) Nothing was written.")
                }
            }
            let existing = Set(try feed.existingPost(id: id).properties.map { $0.name.uppercased() })
            if let missing = removals.first(where: { !existing.contains($0) }) {
                let names = existing.subtracting(["ID"]).sorted()
                let present = names.isEmpty ? "none" : names.joined(separator: ", ")
                throw CLIError.validation(
                    "The post has no property '\(missing)' to remove (its properties: \(present)). Nothing was "
                        + "written.")
            }
            for key in removals { try feed.setProperty(key, to: nil, inPost: id) }
        }
        try publishing.output.finish(address: address, file: path, in: context)
    }
}
