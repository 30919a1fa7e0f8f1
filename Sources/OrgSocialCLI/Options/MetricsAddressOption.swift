import HTTPCore

/// `--metrics-address <host:port>` of the long-running servers: where Prometheus metrics are served
/// (`GET /metrics`) on a listener of their own, falling back to an environment variable; off when neither
/// is given.
struct MetricsAddressOption {
    /// `--metrics-address <host:port>`, naming the command's environment variable.
    ///
    /// - Parameter variable: The variable that stands for the option, e.g. `ORGSOCIAL_RELAY_METRICS_ADDRESS`,
    ///   or `nil` for a command that reads no variables.
    /// - Returns: The definition.
    static func definition(variable: String?) -> OptionDefinition {
        .value(
            "metrics-address", valueName: "host:port",
            help: "Serve Prometheus metrics at http://<host:port>/metrics on a listener of their own, e.g. "
                + "127.0.0.1:9464; keep it private\(variable.map { " ($\($0))" } ?? "").",
            defaultValue: "off")
    }

    /// The option's synopsis, as errors quote it.
    static let synopsis = "--metrics-address <host:port>"

    /// `--metrics-address`, when given.
    var address: ListenAddress?

    /// Reads the option.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` unless it is `HOST:PORT`.
    init(parsing arguments: ParsedArguments) throws {
        address = try arguments.value("metrics-address").map {
            try SettingResolver.value($0, from: .option(Self.synopsis), as: Self.format)
        }
    }

    /// The address: the option, else the environment variable, else `nil` (no metrics).
    /// - Parameters:
    ///   - variable: The command's variable, or `nil` for none.
    ///   - environment: The command's environment.
    /// - Returns: The address, or `nil`.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` when the variable is not `HOST:PORT`.
    func resolved(variable: String?, environment: [String: String]) throws -> ListenAddress? {
        try SettingResolver(environment: environment).resolve(option: address, variable: variable, as: Self.format)?
            .value
    }

    /// `HOST:PORT`.
    private static let format = SettingResolver.Format(
        expected: "an address and port such as 127.0.0.1:9464 ([::1]:9464 for IPv6)",
        parse: ListenAddress.init(parsing:))
}
