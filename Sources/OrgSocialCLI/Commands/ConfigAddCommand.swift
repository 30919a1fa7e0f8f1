/// `orgsocial config add <key> <value>`: adds items to a list setting (`block`, `languages`).
struct ConfigAddCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "add",
            abstract: "Add items to a list setting, e.g. 'config add block https://example.org/social.org'.",
            arguments: [
                ConfigCommand.listKeyArgument,
                ArgumentDefinition(name: "value", help: "The item, or several separated by commas."),
            ])
    }

    /// The key.
    var key: ConfigurationKey
    /// The items as given.
    var value: String

    init(parsing arguments: ParsedArguments) throws {
        key = try ConfigCommand.key(named: try arguments.requiredArgument("key"))
        value = try arguments.requiredArgument("value")
    }

    func validate() throws {
        try ConfigAddCommand.requireList(key)
        _ = try key.checked(value)
    }

    func run(in context: CommandContext) throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        let current = ConfigurationKey.items(of: key.read(configuration) ?? "")
        let added = ConfigurationKey.items(of: try key.checked(value)).filter { !current.contains($0) }
        key.write(&configuration, (current + added).joined(separator: ","))
        try file.save(configuration)
        context.report(
            added.isEmpty
                ? "\(key.name) already holds that; nothing to do."
                : "Added \(added.joined(separator: ", ")) to \(key.name) in \(file.path).")
        ConfigCommand.noteOverride(of: key, in: context)
    }

    /// Refuses keys that are not lists.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func requireList(_ key: ConfigurationKey) throws {
        guard key.isList else {
            throw CLIError.invalidValue(
                value: key.name, option: "<key>",
                reason: "Only list settings (block, languages) take add and remove; use 'config set'.")
        }
    }
}
