/// `--shutdown-deadline <seconds>` of the long-running relay commands (`relay serve`, `relay crawl`): how
/// long a stop after SIGINT or SIGTERM may take, falling back to `ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE`, then 10.
struct RelayShutdownDeadlineOption {
    /// `--shutdown-deadline <seconds>`.
    static let definition = OptionDefinition.value(
        "shutdown-deadline", valueName: "seconds",
        help: "Seconds a stop after SIGINT or SIGTERM may take before the process exits anyway "
            + "with status 1 ($\(variable)).",
        defaultValue: "10")

    /// `--shutdown-deadline`, when given.
    var seconds: Int?

    /// Reads the option.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` unless it is a whole number from 1 to 3600.
    init(parsing arguments: ParsedArguments) throws {
        seconds = try arguments.value("shutdown-deadline").map {
            try SettingResolver.value($0, from: .option(Self.definition.synopsis), as: .integer(1...3600))
        }
    }

    /// The deadline: the option, else the environment variable, else 10 seconds; at least 1 second.
    /// - Parameter environment: The command's environment.
    /// - Returns: The deadline.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` when the variable is not a number of
    ///   seconds.
    func deadline(environment: [String: String]) throws -> Duration {
        let seconds = try SettingResolver(environment: environment).value(
            option: seconds, variable: Self.variable, default: 10, as: RelayServeCommand.secondsFormat)
        return .seconds(max(1, seconds))
    }

    /// The variable of `--shutdown-deadline`.
    static let variable = "ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE"
}
