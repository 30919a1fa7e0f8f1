/// `orgsocial config get <key>`: prints the value in effect.
struct ConfigGetCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "get",
            abstract: "Print the value of a setting (the environment's, else the file's, else the default).",
            discussion: """
                Prints the value alone, for scripts. When the setting has no value, prints nothing on \
                standard output, says so on standard error and exits with 1.
                """,
            arguments: [ConfigCommand.keyArgument])
    }

    /// The key.
    var key: ConfigurationKey

    init(parsing arguments: ParsedArguments) throws {
        key = try ConfigCommand.key(named: try arguments.requiredArgument("key"))
    }

    func run(in context: CommandContext) throws {
        let configuration = try ConfigurationFile.load(in: context)
        guard let (value, _) = try key.effectiveValue(in: configuration, environment: context.environment) else {
            throw CLIError.settingNotSet(key: key.name, environmentName: key.environmentName)
        }
        context.writeLine(value)
    }
}
