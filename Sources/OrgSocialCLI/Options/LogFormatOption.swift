import HTTPCore

/// `--log-format text|json` of the long-running servers: their log lines as today's text or as one JSON
/// object per line, falling back to an environment variable; `text` when neither is given.
struct LogFormatOption {
    /// `--log-format <format>`, naming the command's environment variable.
    ///
    /// - Parameter variable: The variable that stands for the option, e.g. `ORGSOCIAL_RELAY_LOG_FORMAT`, or
    ///   `nil` for a command that reads no variables.
    /// - Returns: The definition.
    static func definition(variable: String?) -> OptionDefinition {
        .value(
            "log-format", valueName: "format",
            help: "How log lines are written: text, or json for one JSON object per line with the time, the "
                + "message and each key=value pair as a member (journald, Loki)"
                + "\(variable.map { " ($\($0))" } ?? "").",
            allowedValues: LogFormat.allCases.map(\.rawValue), defaultValue: "text")
    }

    /// `--log-format`, when given (the parser has checked it is one of the allowed values).
    var format: LogFormat?

    /// Reads the option.
    init(parsing arguments: ParsedArguments) {
        format = arguments.value("log-format").flatMap(LogFormat.init(rawValue:))
    }

    /// The format: the option, else the environment variable, else `text`.
    /// - Parameters:
    ///   - variable: The command's variable, or `nil` for none.
    ///   - environment: The command's environment.
    /// - Returns: The format.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` when the variable is neither `text` nor
    ///   `json`.
    func resolved(variable: String?, environment: [String: String]) throws -> LogFormat {
        try SettingResolver(environment: environment).value(
            option: format, variable: variable, default: .text,
            as: SettingResolver.Format(expected: "text or json", parse: LogFormat.init(rawValue:)))
    }
}
