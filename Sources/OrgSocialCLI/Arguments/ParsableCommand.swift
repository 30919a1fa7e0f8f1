/// A command of the `orgsocial` tool. Running one goes through three separate steps, as in
/// swift-argument-parser: ``init(parsing:)`` turns the parsed tokens into typed values, ``validate()``
/// checks that they make sense together (both fail with a usage error, exit code 2), and
/// ``run(in:)`` does the work (its failures exit with code 1).
protocol ParsableCommand {
    /// The command's name, help and accepted arguments.
    static var configuration: CommandConfiguration { get }

    /// Reads typed values from parsed arguments.
    /// - Throws: ``CLIError`` (a usage error) for a value of the wrong form.
    init(parsing arguments: ParsedArguments) throws

    /// Checks the values together, before anything runs.
    /// - Throws: ``CLIError`` (a usage error) saying what to change.
    func validate() throws

    /// Does the work, writing results to the context's standard output. Commands that don't wait for
    /// anything implement it as a synchronous method, which satisfies this requirement.
    /// - Throws: ``CLIError`` or `OrgSocialError` when the command fails.
    func run(in context: CommandContext) async throws
}

extension ParsableCommand {
    func validate() throws {}
}

/// A command that only holds subcommands (`orgsocial`, `orgsocial group`). Invoked on its own it prints
/// its help.
protocol CommandGroup: ParsableCommand {
    /// Makes the (stateless) group.
    init()
}

extension CommandGroup {
    init(parsing arguments: ParsedArguments) throws { self.init() }

    /// Never called: the dispatcher prints the group's help when no subcommand is named.
    func run(in context: CommandContext) throws {}
}
