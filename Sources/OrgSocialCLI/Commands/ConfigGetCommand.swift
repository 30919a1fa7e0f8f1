/// `orgsocial config get <key>`: prints the value in effect.
struct ConfigGetCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "get",
            abstract: "Print the value of a setting (the environment's, else the file's, else the default).",
            discussion: "Exits with 1, printing nothing, when the setting has no value.",
            arguments: [ConfigCommand.keyArgument])
    }

    /// The key.
    var key: ConfigurationKey

    init(parsing arguments: ParsedArguments) throws {
        key = try ConfigCommand.key(named: try arguments.requiredArgument("key"))
    }

    func run(in context: CommandContext) throws {
        let configuration = try ConfigurationFile.load(in: context)
        guard let (value, _) = key.effectiveValue(in: configuration, environment: context.environment) else {
            throw CLIError.exit(1)
        }
        context.writeLine(value)
    }
}
