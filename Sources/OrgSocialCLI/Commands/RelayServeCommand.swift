import Foundation
import Relay

/// `orgsocial relay serve [--db <path>] [...]`: runs a relay (HTTP API and crawler in one process) until
/// SIGINT or SIGTERM.
struct RelayServeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "serve",
            abstract: "Run a relay: the relay HTTP API and its crawler, over SQLite or PostgreSQL.",
            discussion: """
                Serves the relay API of relay.org-social.org (feeds, mentions, notifications, replies, \
                search, groups, polls, profile, stats, RSS, Server-Sent Events) and crawls every registered \
                feed with conditional GET every --scan-interval seconds. Feeds come from POST /feeds/, from \
                everyone's #+FOLLOW: lines (daily) and from the peer relays' feed lists (every 3 hours).

                Logs to standard error: the start-up line and one line per crawl pass, as text or (with \
                --log-format json) one JSON object per line. Stops gracefully on SIGINT or SIGTERM; SIGHUP \
                reads --relay-list again (an unreadable list keeps the old peers). Every option also reads an \
                environment variable (ORGSOCIAL_RELAY_DB, \
                ORGSOCIAL_RELAY_HOST, ORGSOCIAL_RELAY_PORT, ORGSOCIAL_RELAY_SITE_DOMAIN, \
                ORGSOCIAL_RELAY_GROUPS, ORGSOCIAL_RELAY_SCAN_INTERVAL, ORGSOCIAL_RELAY_LIST, \
                ORGSOCIAL_RELAY_SHUTDOWN_DEADLINE, and those named below), so one settings file (relay.env) \
                serves this command and the admin commands ('relay scan', 'add-feed', 'stats') alike. See \
                relay/README.md for a public deployment behind nginx.

                With --metrics-address, Prometheus metrics (requests, latency, the response cache, refused \
                connections, crawl passes, totals) are served at /metrics on a listener of their own, never \
                on the API's. The API's listener answers GET /healthz (the process is up) and GET /readyz \
                (the database answers; 503 otherwise) for load balancers and systemd.

                Limits against abusive clients are on by default: connections and event streams per \
                address, event streams in all, a deadline for request heads and registrations per \
                address and hour. Behind a reverse proxy every client has the proxy's address: give 0 \
                to the per-address limits there and limit per client in the proxy.
                """,
            options: [
                RelayServiceOptions.databaseOption,
                .value("host", help: "The address to listen on ($ORGSOCIAL_RELAY_HOST).", defaultValue: "127.0.0.1"),
                .value("port", help: "The TCP port; 0 picks a free one ($ORGSOCIAL_RELAY_PORT).", defaultValue: "8080"),
                .value(
                    "site-domain", valueName: "host:port",
                    help: "The relay's public host, used in RSS links and to skip itself in the relay list "
                        + "($ORGSOCIAL_RELAY_SITE_DOMAIN).",
                    defaultValue: "localhost:<port>"),
                RelayServiceOptions.groupsOption,
                .value(
                    "scan-interval", valueName: "seconds",
                    help: "Seconds between the starts of two crawl passes; 0 crawls only with 'relay scan' "
                        + "($ORGSOCIAL_RELAY_SCAN_INTERVAL).",
                    defaultValue: "60"),
                .flag(
                    "no-crawl",
                    help: "Serve the API only, never crawl (as --scan-interval 0): for API processes beside "
                        + "'relay crawl' workers on one PostgreSQL database ($\(noCrawlVariable)=1)."),
                RelayServiceOptions.relayListOption,
                RelayServiceOptions.privateAddressesOption,
                .flag(
                    "no-webmentions",
                    help: "Do not send outgoing Webmentions for the links of new posts (they are still queued) "
                        + "($\(noWebmentionsVariable)=1)."),
                MetricsAddressOption.definition(variable: metricsVariable),
                ClientLimitOptions.connectionsPerAddressOption(
                    variable: ClientLimitOptions.Variable.connectionsPerAddress),
                ClientLimitOptions.headerTimeoutOption(variable: ClientLimitOptions.Variable.headerTimeout),
                ClientLimitOptions.streamsOption,
                ClientLimitOptions.streamsPerAddressOption,
                ClientLimitOptions.registrationsOption,
                RelayShutdownDeadlineOption.definition,
                RelayServiceOptions.logFormatOption,
            ], handlesTerminationSignals: true)
    }

    /// The variable of `--no-crawl`.
    static let noCrawlVariable = "ORGSOCIAL_RELAY_NO_CRAWL"
    /// The variable of `--no-webmentions`.
    static let noWebmentionsVariable = "ORGSOCIAL_RELAY_NO_WEBMENTIONS"
    /// The variable of `--metrics-address`.
    static let metricsVariable = "ORGSOCIAL_RELAY_METRICS_ADDRESS"

    /// The shared relay options.
    var options: RelayServiceOptions
    /// `--host`, when given.
    var host: String?
    /// `--port`, when given.
    var port: Int?
    /// `--site-domain`, when given.
    var siteDomain: String?
    /// `--scan-interval`, when given.
    var scanInterval: Int?
    /// `--no-crawl` (the variable is read when running).
    var crawls: Bool
    /// The client limits and the registration rate.
    var limits: ClientLimitOptions
    /// `--shutdown-deadline`.
    var shutdownDeadline: RelayShutdownDeadlineOption
    /// `--no-webmentions` (the variable is read when running).
    var sendsWebmentions: Bool
    /// `--metrics-address`.
    var metrics: MetricsAddressOption

    init(parsing arguments: ParsedArguments) throws {
        options = RelayServiceOptions(parsing: arguments)
        host = arguments.value("host")
        port = try arguments.value("port").map { try Self.port($0, option: "--port <port>") }
        siteDomain = arguments.value("site-domain")
        scanInterval = try arguments.value("scan-interval").map {
            try Self.seconds($0, option: "--scan-interval <seconds>")
        }
        crawls = !arguments.flag("no-crawl")
        limits = try ClientLimitOptions(parsing: arguments)
        sendsWebmentions = !arguments.flag("no-webmentions")
        shutdownDeadline = try RelayShutdownDeadlineOption(parsing: arguments)
        metrics = try MetricsAddressOption(parsing: arguments)
    }

    func validate() throws {
        try options.validate()
        if let siteDomain { try Self.checkSiteDomain(siteDomain, option: "--site-domain <host:port>") }
    }

    func run(in context: CommandContext) async throws {
        let environment = context.environment
        var configuration = try options.configuration(in: context)
        configuration.host =
            host ?? environment["ORGSOCIAL_RELAY_HOST"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        configuration.port =
            try port ?? environment["ORGSOCIAL_RELAY_PORT"].map { try Self.port($0, variable: "ORGSOCIAL_RELAY_PORT") }
            ?? 8080
        if let domain = siteDomain ?? environment["ORGSOCIAL_RELAY_SITE_DOMAIN"].flatMap({ $0.isEmpty ? nil : $0 }) {
            if siteDomain == nil {
                do {
                    try Self.checkSiteDomain(domain, option: "")
                } catch {
                    throw CLIError.invalidEnvironment(
                        name: "ORGSOCIAL_RELAY_SITE_DOMAIN", value: domain,
                        reason: "it must be a host name with an optional port, such as relay.example.org, or unset.")
                }
            }
            configuration.siteDomain = domain
        }
        let seconds =
            try scanInterval
            ?? environment["ORGSOCIAL_RELAY_SCAN_INTERVAL"].map {
                try Self.seconds($0, variable: "ORGSOCIAL_RELAY_SCAN_INTERVAL")
            } ?? 60
        let crawls = try !RelayServiceOptions.isOn(!crawls, variable: Self.noCrawlVariable, environment: environment)
        configuration.scanInterval = seconds > 0 && crawls ? .seconds(seconds) : nil
        configuration.clientLimits = try limits.clientLimits(environment: environment)
        configuration.registrationRate = try limits.hourlyRate(
            default: 60, variable: ClientLimitOptions.Variable.registrationsPerHour, environment: environment)
        configuration.shutdownDeadline = try shutdownDeadline.deadline(environment: environment)
        configuration.sendsWebmentions = try !RelayServiceOptions.isOn(
            !sendsWebmentions, variable: Self.noWebmentionsVariable, environment: environment)
        configuration.metricsAddress = try metrics.resolved(variable: Self.metricsVariable, environment: environment)
        let service = try await RelayService(configuration: configuration)
        try await service.run()
    }

    // MARK: - Values

    /// Parses a port option.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func port(_ text: String, option: String) throws -> Int {
        try ServeCommand.integer(text, option: option, range: 0...65535)
    }

    /// Parses a port from an environment variable.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)``.
    static func port(_ text: String, variable: String) throws -> Int {
        guard let value = Int(text), (0...65535).contains(value) else {
            throw CLIError.invalidEnvironment(
                name: variable, value: text, reason: "it must be a port number from 0 to 65535, or unset.")
        }
        return value
    }

    /// Parses a number of seconds option.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func seconds(_ text: String, option: String) throws -> Int {
        try ServeCommand.integer(text, option: option, range: 0...86_400)
    }

    /// Parses a number of seconds from an environment variable.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)``.
    static func seconds(_ text: String, variable: String) throws -> Int {
        guard let value = Int(text), (0...86_400).contains(value) else {
            throw CLIError.invalidEnvironment(
                name: variable, value: text, reason: "it must be a whole number of seconds from 0 to 86400, or unset.")
        }
        return value
    }

    /// Checks that a site domain is `host[:port]` without a scheme, path or spaces.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func checkSiteDomain(_ domain: String, option: String) throws {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:[]"))
        guard !domain.isEmpty, domain.unicodeScalars.allSatisfy({ allowed.contains($0) }), !domain.hasPrefix(":")
        else {
            throw CLIError.invalidValue(
                value: domain, option: option,
                reason: "Give the public host name without a scheme or path, e.g. relay.example.org or "
                    + "localhost:8080.")
        }
    }
}
