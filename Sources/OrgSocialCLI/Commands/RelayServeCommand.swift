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
                .value(
                    "mirror-prefix", valueName: "path",
                    help: "Where the mirror API the official Org Social apps read is served; 'none' turns it off "
                        + "($\(mirrorPrefixVariable)).",
                    defaultValue: "/api/"),
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

    /// The variable of `--mirror-prefix`.
    static let mirrorPrefixVariable = "ORGSOCIAL_RELAY_MIRROR_PREFIX"

    /// The variable of `--no-crawl`.
    static let noCrawlVariable = "ORGSOCIAL_RELAY_NO_CRAWL"
    /// The variable of `--no-webmentions`.
    static let noWebmentionsVariable = "ORGSOCIAL_RELAY_NO_WEBMENTIONS"
    /// The variable of `--scan-interval`.
    static let scanIntervalVariable = "ORGSOCIAL_RELAY_SCAN_INTERVAL"
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
    /// `--mirror-prefix`, when given (`.some(nil)` for `none`).
    var mirrorPrefix: String??

    init(parsing arguments: ParsedArguments) throws {
        options = RelayServiceOptions(parsing: arguments)
        host = arguments.value("host")
        port = try arguments.value("port").map {
            try SettingResolver.value($0, from: .option("--port <port>"), as: Self.portFormat)
        }
        siteDomain = arguments.value("site-domain")
        scanInterval = try arguments.value("scan-interval").map {
            try SettingResolver.value($0, from: .option("--scan-interval <seconds>"), as: Self.secondsFormat)
        }
        crawls = !arguments.flag("no-crawl")
        limits = try ClientLimitOptions(parsing: arguments)
        sendsWebmentions = !arguments.flag("no-webmentions")
        shutdownDeadline = try RelayShutdownDeadlineOption(parsing: arguments)
        metrics = try MetricsAddressOption(parsing: arguments)
        mirrorPrefix = try arguments.value("mirror-prefix").map {
            try SettingResolver.value($0, from: .option("--mirror-prefix <path>"), as: Self.mirrorPrefixFormat)
        }
    }

    func validate() throws {
        try options.validate()
        if let siteDomain {
            _ = try SettingResolver.value(
                siteDomain, from: .option("--site-domain <host:port>"), as: Self.siteDomainFormat)
        }
    }

    func run(in context: CommandContext) async throws {
        let environment = context.environment
        let settings = SettingResolver(environment: environment)
        var configuration = try options.configuration(in: context)
        configuration.host = try settings.value(
            option: host, variable: "ORGSOCIAL_RELAY_HOST", default: "127.0.0.1", as: .text)
        configuration.port = try settings.value(
            option: port, variable: "ORGSOCIAL_RELAY_PORT", default: 8080, as: Self.portFormat)
        if let domain = try settings.resolve(
            option: siteDomain, variable: "ORGSOCIAL_RELAY_SITE_DOMAIN", as: Self.siteDomainFormat)
        {
            configuration.siteDomain = domain.value
        }
        let seconds = try settings.value(
            option: scanInterval, variable: Self.scanIntervalVariable, default: 60, as: Self.secondsFormat)
        let crawls = try !RelayServiceOptions.isOn(!crawls, variable: Self.noCrawlVariable, in: settings)
        configuration.scanInterval = seconds > 0 && crawls ? .seconds(seconds) : nil
        configuration.clientLimits = try limits.clientLimits(environment: environment)
        configuration.registrationRate = try limits.hourlyRate(
            default: 60, variable: ClientLimitOptions.Variable.registrationsPerHour, environment: environment)
        configuration.shutdownDeadline = try shutdownDeadline.deadline(environment: environment)
        configuration.sendsWebmentions = try !RelayServiceOptions.isOn(
            !sendsWebmentions, variable: Self.noWebmentionsVariable, in: settings)
        configuration.mirrorPrefix = try settings.value(
            option: mirrorPrefix, variable: Self.mirrorPrefixVariable, default: "/api/", as: Self.mirrorPrefixFormat)
        configuration.metricsAddress = try metrics.resolved(variable: Self.metricsVariable, environment: environment)
        RelayServiceOptions.createDefaultFolders(for: configuration, environment: environment)
        let service = try await RelayService(configuration: configuration)
        try await service.run()
    }

    // MARK: - Values

    /// A TCP port.
    static let portFormat: SettingResolver.Format<Int> = .integer(0...65535)

    /// A number of seconds (`--scan-interval` and the variables of seconds).
    static let secondsFormat: SettingResolver.Format<Int> = .integer(0...86_400, of: "seconds")

    /// A mirror API prefix (`/api/`), or `none` for no mirror API.
    static let mirrorPrefixFormat = SettingResolver.Format<String?>(
        expected: "a path such as /api/ (segments of letters, digits, '-', '.', '_' or '~', the first not one of "
            + "the relay API's, such as feeds or groups), or none"
    ) { text in
        if text == "none" { return .some(nil) }
        return (try? RelayService.checkedMirrorPrefix(text)).map { .some($0) }
    }

    /// A site domain: `host[:port]` without a scheme, path or spaces.
    static let siteDomainFormat = SettingResolver.Format(
        expected: "a host name with an optional port and no scheme or path, such as relay.example.org or "
            + "localhost:8080"
    ) { domain in
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:[]"))
        let isValid =
            !domain.isEmpty && domain.unicodeScalars.allSatisfy { allowed.contains($0) } && !domain.hasPrefix(":")
        return isValid ? domain : nil
    }
}
