/// `orgsocial help [<subcommands> ...]`: prints what `orgsocial <subcommands> --help` prints;
/// `orgsocial help --man <dir>` writes the man pages instead (see ``ManPageGenerator``).
struct HelpCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "help",
            abstract: "Show subcommand help information.",
            arguments: [
                ArgumentDefinition(
                    name: "subcommands", help: "The subcommand to describe, e.g. 'post' or 'group join'.",
                    isOptional: true, isRepeating: true)
            ],
            options: [
                .value(
                    "man", valueName: "dir",
                    help: "Write the man pages instead: orgsocial.1 and one orgsocial-<command>.1 per command "
                        + "(orgsocial-post.1, orgsocial-group-join.1, ...), into this folder.")
            ])
    }

    /// The names of the command to describe, below the root.
    var names: [String]
    /// `--man <dir>`: where to write the man pages.
    var manFolder: String?

    init(parsing arguments: ParsedArguments) throws {
        names = arguments.arguments("subcommands")
        manFolder = arguments.value("man")
    }

    func validate() throws {
        if manFolder != nil, !names.isEmpty {
            throw CLIError.validation("'--man' writes every page; drop the subcommand names or '--man'.")
        }
    }

    func run(in context: CommandContext) throws {
        if let manFolder {
            let files = try ManPageGenerator().write(into: manFolder)
            context.writeLine("Wrote \(files.count) man pages into \(manFolder).")
            return
        }
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
