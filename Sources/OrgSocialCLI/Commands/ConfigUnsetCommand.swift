/// `orgsocial config unset <key>`: removes a setting from the file.
struct ConfigUnsetCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "unset",
            abstract: "Remove a setting from the configuration file (its default, if any, applies again).",
            arguments: [ConfigCommand.keyArgument])
    }

    /// The key.
    var key: ConfigurationKey

    init(parsing arguments: ParsedArguments) throws {
        key = try ConfigCommand.key(named: try arguments.requiredArgument("key"))
    }

    func run(in context: CommandContext) throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        guard key.read(configuration) != nil else {
            context.report("\(key.name) is not set in \(file.path); nothing to do.")
            return
        }
        key.write(&configuration, nil)
        try file.save(configuration)
        context.report("\(key.name) removed from \(file.path).")
        ConfigCommand.noteOverride(of: key, in: context)
    }
}
