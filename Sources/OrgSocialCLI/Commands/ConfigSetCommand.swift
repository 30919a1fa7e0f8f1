/// `orgsocial config set <key> <value>`: stores a checked value.
struct ConfigSetCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "set",
            abstract: "Store a setting in the configuration file.",
            discussion: """
                URLs must be http:// or https://, languages ISO 639-1 codes; list settings (block, \
                languages) take a comma-separated list that replaces the stored one (see 'config add'); \
                languages may be separated by spaces too. A value of '-' is read from standard input, so a \
                secret such as publish.token stays out of the shell's history and the process list.
                """,
            arguments: [
                ConfigCommand.keyArgument,
                ArgumentDefinition(name: "value", help: "The new value; '-' reads it from standard input."),
            ])
    }

    /// The key.
    var key: ConfigurationKey
    /// The value as given (`-` for standard input).
    var value: String

    init(parsing arguments: ParsedArguments) throws {
        key = try ConfigCommand.key(named: try arguments.requiredArgument("key"))
        value = try arguments.requiredArgument("value")
    }

    func validate() throws {
        if value != TextInput.standardInput { _ = try key.checked(value) }
    }

    func run(in context: CommandContext) throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        let stored = try key.checked(try TextInput.resolve(value, in: context))
        key.write(&configuration, stored)
        try file.save(configuration)
        context.report("\(key.name) = \(key.isSecret ? "(hidden)" : stored) saved in \(file.path).")
        ConfigCommand.noteOverride(of: key, in: context)
    }
}
