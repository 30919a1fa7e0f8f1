import HTTPClient

/// How long a command waits for a server (a feed, a relay, a host, a Mastodon instance) that sends
/// nothing: one setting for every command, `--timeout <seconds>` where the command talks to servers, else
/// `$ORGSOCIAL_TIMEOUT`, else 10 seconds. It bounds each request's silence (connecting, or waiting for the
/// next byte) and the whole read of a feed, so a server that trickles its answer is given up on too.
///
/// ``CLI`` reads it once per command and applies it to every transport the command makes
/// (``CommandContext/makeTransport``) and to feed reads (``ReadingOptions/makeFetcher(in:)``).
enum ServerTimeout {
    /// The environment variable that sets it for every command.
    static let environmentName = "ORGSOCIAL_TIMEOUT"
    /// The timeout when nothing sets one, in seconds.
    static let defaultSeconds = 10
    /// The values accepted, in seconds.
    static let range = 1...3600

    /// `--timeout <seconds>`.
    static let option = OptionDefinition.value(
        "timeout", valueName: "seconds",
        help: "Give up on a server that sends nothing, or has not sent a whole feed, within this many seconds "
            + "($\(environmentName)).",
        defaultValue: "\(defaultSeconds)")

    /// The timeout of a command line: `--timeout`, else `$ORGSOCIAL_TIMEOUT`, else the default.
    /// - Parameters:
    ///   - arguments: the parsed command line (`--timeout` is read only where the command defines it).
    ///   - environment: the environment variables.
    /// - Returns: The timeout.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` for a bad `--timeout`,
    ///   ``CLIError/invalidEnvironment(name:value:reason:)`` for a bad `$ORGSOCIAL_TIMEOUT`.
    static func resolve(_ arguments: ParsedArguments, environment: [String: String]) throws -> Duration {
        let format: SettingResolver.Format<Int> = .integer(range, of: "seconds")
        let given = try arguments.value(option.name).map {
            try SettingResolver.value($0, from: .option(option.synopsis), as: format)
        }
        return .seconds(
            try SettingResolver(environment: environment).value(
                option: given, variable: environmentName, default: defaultSeconds, as: format))
    }
}

/// A transport that gives every request without a timeout of its own the command's ``ServerTimeout``.
struct ServerTimeoutTransport: HTTPTransport {
    /// The transport that sends.
    let base: any HTTPTransport
    /// The timeout given to requests that have none.
    let timeout: Duration

    func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        var request = request
        if request.timeout == nil { request.timeout = timeout }
        return try await base.send(request)
    }

    func stream(_ request: HTTPClientRequest) async throws -> HTTPClientStreamingResponse {
        var request = request
        if request.timeout == nil { request.timeout = timeout }
        return try await base.stream(request)
    }
}
