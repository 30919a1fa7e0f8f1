/// `orgsocial help [<subcommands> ...]`: prints what `orgsocial <subcommands> --help` prints.
struct HelpCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "help",
            abstract: "Show subcommand help information.",
            arguments: [
                ArgumentDefinition(
                    name: "subcommands", help: "The subcommand to describe, e.g. 'post' or 'group join'.",
                    isOptional: true, isRepeating: true)
            ])
    }

    /// The names of the command to describe, below the root.
    var names: [String]

    init(parsing arguments: ParsedArguments) throws {
        names = arguments.arguments("subcommands")
    }

    func run(in context: CommandContext) throws {
        if names == [Self.configuration.name] {
            context.write(HelpGenerator(command: Self.self, path: [CLI.name, Self.configuration.name]).help)
            return
        }
        var command: any ParsableCommand.Type = RootCommand.self
        var path = [CLI.name]
        for name in names {
            guard let subcommand = command.configuration.subcommand(named: name) else {
                let candidates = command.configuration.subcommands.map { $0.configuration.name }
                throw CLIError.unknownCommand(
                    name, suggestion: NameSuggester.suggestion(for: name, among: candidates))
            }
            command = subcommand
            path.append(name)
        }
        context.write(HelpGenerator(command: command, path: path).help)
    }
}
