import HTTPCore
import HTTPServer

/// The limits against slow and greedy clients that `orgsocial serve` and `orgsocial relay serve`
/// share: connections per client address, the request-head deadline, and a per-address rate limit
/// (signups on the node, registrations on the relay). For the relay, each option also reads an
/// `ORGSOCIAL_RELAY_*` environment variable; the flag wins.
///
/// Behind a reverse proxy every client has the proxy's address: give 0 for the per-address options
/// there and limit per client in the proxy.
struct ClientLimitOptions {
    /// The environment variables of the relay's options.
    enum Variable {
        static let connectionsPerAddress = "ORGSOCIAL_RELAY_MAX_CONNECTIONS_PER_ADDRESS"
        static let headerTimeout = "ORGSOCIAL_RELAY_HEADER_TIMEOUT"
        static let streams = "ORGSOCIAL_RELAY_MAX_STREAMS"
        static let streamsPerAddress = "ORGSOCIAL_RELAY_MAX_STREAMS_PER_ADDRESS"
        static let registrationsPerHour = "ORGSOCIAL_RELAY_REGISTRATIONS_PER_HOUR"
    }

    /// `--max-connections-per-address <n>`, naming `variable` in its help when given.
    static func connectionsPerAddressOption(variable: String? = nil) -> OptionDefinition {
        .value(
            "max-connections-per-address", valueName: "n",
            help: "The most connections one client address may hold; 0 for no limit (behind a reverse proxy, "
                + "which makes every client one address)\(mention(variable)).",
            defaultValue: "32")
    }

    /// `--header-timeout <seconds>`.
    static func headerTimeoutOption(variable: String? = nil) -> OptionDefinition {
        .value(
            "header-timeout", valueName: "seconds",
            help: "Seconds a client has to send a whole request head, however slowly it trickles; 0 for no "
                + "deadline\(mention(variable)).",
            defaultValue: "10")
    }

    /// `--max-streams <n>` (relay).
    static let streamsOption = OptionDefinition.value(
        "max-streams", valueName: "n",
        help: "The most event streams open at once; more get 503. 0 for no limit ($\(Variable.streams)).",
        defaultValue: "256")

    /// `--max-buffered-upload-bytes <n>` (node).
    static let bufferedBytesOption = OptionDefinition.value(
        "max-buffered-upload-bytes", valueName: "n",
        help: "The most upload bytes held in memory across all connections; uploads past it get 503. 0 for "
            + "no limit.",
        defaultValue: "67108864")

    /// `--max-streams-per-address <n>` (relay).
    static let streamsPerAddressOption = OptionDefinition.value(
        "max-streams-per-address", valueName: "n",
        help: "The most event streams one client address may hold; 0 for no limit "
            + "($\(Variable.streamsPerAddress)).",
        defaultValue: "4")

    /// `--signups-per-hour <n>` (node).
    static let signupsOption = OptionDefinition.value(
        "signups-per-hour", valueName: "n",
        help: "Host API signups allowed per client address and hour; more get 429. 0 for no limit.",
        defaultValue: "10")

    /// `--registrations-per-hour <n>` (relay).
    static let registrationsOption = OptionDefinition.value(
        "registrations-per-hour", valueName: "n",
        help: "POST /feeds/ registrations allowed per client address and hour; more get 429. 0 for no limit "
            + "($\(Variable.registrationsPerHour)).",
        defaultValue: "60")

    private static func mention(_ variable: String?) -> String {
        variable.map { " ($\($0))" } ?? ""
    }

    /// `--max-connections-per-address`, when given.
    var connectionsPerAddress: Int?
    /// `--header-timeout`, when given.
    var headerTimeout: Int?
    /// `--max-streams`, when given.
    var streams: Int?
    /// `--max-streams-per-address`, when given.
    var streamsPerAddress: Int?
    /// `--max-buffered-upload-bytes`, when given.
    var bufferedBytes: Int?
    /// `--signups-per-hour` or `--registrations-per-hour`, when given.
    var perHour: Int?

    /// Reads the options a command declares (the others are simply absent).
    ///
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` for a value that is not a whole number
    ///   in range.
    init(parsing arguments: ParsedArguments) throws {
        connectionsPerAddress = try arguments.value("max-connections-per-address").map {
            try ServeCommand.integer($0, option: "--max-connections-per-address <n>", range: 0...100_000)
        }
        headerTimeout = try arguments.value("header-timeout").map {
            try ServeCommand.integer($0, option: "--header-timeout <seconds>", range: 0...3600)
        }
        streams = try arguments.value("max-streams").map {
            try ServeCommand.integer($0, option: "--max-streams <n>", range: 0...100_000)
        }
        streamsPerAddress = try arguments.value("max-streams-per-address").map {
            try ServeCommand.integer($0, option: "--max-streams-per-address <n>", range: 0...100_000)
        }
        bufferedBytes = try arguments.value("max-buffered-upload-bytes").map {
            try ServeCommand.integer($0, option: "--max-buffered-upload-bytes <n>", range: 0...Int(Int32.max))
        }
        let rate =
            arguments.value("signups-per-hour").map { ($0, "--signups-per-hour <n>") }
            ?? arguments.value("registrations-per-hour").map { ($0, "--registrations-per-hour <n>") }
        perHour = try rate.map { try ServeCommand.integer($0.0, option: $0.1, range: 0...1_000_000) }
    }

    /// The client limits these options describe, over the defaults (``HTTPDaemon/ClientLimits/init()``),
    /// reading the relay's environment variables when `environment` is given.
    ///
    /// - Parameter environment: The relay's environment, or `nil` for the node (no variables).
    /// - Returns: The limits.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a variable that is not a whole
    ///   number.
    func clientLimits(environment: [String: String]? = nil) throws -> HTTPDaemon.ClientLimits {
        var limits = HTTPDaemon.ClientLimits()
        if let value = try resolved(connectionsPerAddress, Variable.connectionsPerAddress, environment) {
            limits.connectionsPerAddress = value > 0 ? value : nil
        }
        if let value = try resolved(headerTimeout, Variable.headerTimeout, environment) {
            limits.requestHeadDeadline = value > 0 ? .seconds(value) : nil
        }
        if let value = try resolved(streams, Variable.streams, environment) {
            limits.maximumStreams = value > 0 ? value : nil
        }
        if let bufferedBytes {
            limits.maximumBufferedBodyBytes = bufferedBytes > 0 ? bufferedBytes : nil
        }
        if let value = try resolved(streamsPerAddress, Variable.streamsPerAddress, environment) {
            limits.maximumStreamsPerAddress = value > 0 ? value : nil
        }
        return limits
    }

    /// The per-address rate (signups or registrations per hour): the option, else `variable` from
    /// `environment`, else `defaultPerHour`; `nil` for 0.
    ///
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a variable that is not a whole
    ///   number.
    func hourlyRate(default defaultPerHour: Int, variable: String? = nil, environment: [String: String]? = nil)
        throws -> TokenBucket.Rate?
    {
        let perHour = try resolved(perHour, variable, environment) ?? defaultPerHour
        return perHour > 0 ? TokenBucket.Rate(requests: perHour, per: .seconds(3600)) : nil
    }

    private func resolved(_ given: Int?, _ variable: String?, _ environment: [String: String]?) throws -> Int? {
        try SettingResolver(environment: environment ?? [:]).resolve(
            option: given, variable: variable, as: .integer(0...1_000_000))?.value
    }
}
