/// What a command is called, what it does and what it accepts: the source of its help text, its usage
/// line and its parser.
struct CommandConfiguration {
    /// The name typed on the command line (`post`).
    var name: String
    /// One sentence shown after `OVERVIEW:` and in the parent's SUBCOMMANDS list.
    var abstract: String
    /// Further paragraphs shown under the overview.
    var discussion: String?
    /// The positional arguments, in order.
    var arguments: [ArgumentDefinition] = []
    /// The options, in the order help lists them (`--help` is added automatically).
    var options: [OptionDefinition] = []
    /// The subcommands of a command group; empty for a command that runs.
    var subcommands: [any ParsableCommand.Type] = []
    /// Whether a command with subcommands also runs itself when its first token names none of them
    /// (`orgsocial serve --root …` next to `orgsocial serve token …`).
    var runsWithoutSubcommand = false
    /// Whether the command takes SIGINT and SIGTERM over itself (the servers, which stop gracefully);
    /// every other command is interrupted by them (see ``Interruption``).
    var handlesTerminationSignals = false

    /// Whether this command only groups subcommands.
    var isGroup: Bool { !subcommands.isEmpty }

    /// The subcommand with this name.
    func subcommand(named name: String) -> (any ParsableCommand.Type)? {
        subcommands.first { $0.configuration.name == name }
    }
}
