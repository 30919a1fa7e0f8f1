import OrgSocial

/// `orgsocial config remove <key> <value>`: removes items from a list setting (`block`, `languages`).
struct ConfigRemoveCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "remove",
            abstract: "Remove items from a list setting, e.g. 'config remove block https://example.org/social.org'.",
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

    func validate() throws { try ConfigAddCommand.requireList(key) }

    func run(in context: CommandContext) throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        let current = ConfigurationKey.items(of: key.read(configuration) ?? "")
        // Languages may be given as "en es" too (the one list syntax of languages).
        let languages = key.kind == .languageList ? try? OrgSyntax.languageCodes(in: value) : nil
        let removed = Set(languages ?? ConfigurationKey.items(of: value))
        let kept = current.filter { !removed.contains($0) }
        guard kept.count != current.count else {
            context.report("\(key.name) does not hold \(value); nothing to do.")
            return
        }
        key.write(&configuration, kept.isEmpty ? nil : kept.joined(separator: ","))
        try file.save(configuration)
        context.report("Removed \(current.count - kept.count) item(s) from \(key.name) in \(file.path).")
    }
}
