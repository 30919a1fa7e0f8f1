import Foundation
import Relay

/// `orgsocial relay crawl [--db <path|url>] [...]`: a crawl-only relay worker (no HTTP API) until SIGINT or
/// SIGTERM.
struct RelayCrawlCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "crawl",
            abstract: "Crawl a relay database every --scan-interval seconds, without serving the API.",
            discussion: """
                Runs the crawl passes of 'relay serve' (follows and peer discovery when due, then every feed \
                with conditional GET) and nothing else, until SIGINT or SIGTERM. Pair it with \
                'relay serve --no-crawl' processes on the same database: on PostgreSQL (--db postgres://…) \
                any number of API processes serve what the crawler indexes, with their caches and event \
                streams following it, and several crawl workers share the feeds through leases (each feed \
                fetched by one worker at a time; a stopped worker's feeds are taken over one interval later). \
                Give the same --groups as the API processes. Logs to standard error (one JSON object per \
                line with --log-format json); SIGHUP reads --relay-list again. With \
                --metrics-address, the crawl's Prometheus metrics are served at /metrics meanwhile.
                """,
            options: [
                RelayServiceOptions.databaseOption, RelayServiceOptions.groupsOption,
                .value(
                    "scan-interval", valueName: "seconds",
                    help: "Seconds between the starts of two crawl passes, at least 1 "
                        + "($ORGSOCIAL_RELAY_SCAN_INTERVAL).",
                    defaultValue: "60"),
                RelayServiceOptions.relayListOption, RelayServiceOptions.privateAddressesOption,
                RelayShutdownDeadlineOption.definition,
                MetricsAddressOption.definition(variable: RelayServeCommand.metricsVariable),
                RelayServiceOptions.logFormatOption,
            ], handlesTerminationSignals: true)
    }

    /// The shared relay options.
    var options: RelayServiceOptions
    /// `--scan-interval`, when given.
    var scanInterval: Int?
    /// `--shutdown-deadline`.
    var shutdownDeadline: RelayShutdownDeadlineOption
    /// `--metrics-address`.
    var metrics: MetricsAddressOption

    init(parsing arguments: ParsedArguments) throws {
        options = RelayServiceOptions(parsing: arguments)
        scanInterval = try arguments.value("scan-interval").map {
            try SettingResolver.value($0, from: .option("--scan-interval <seconds>"), as: .integer(1...86_400))
        }
        shutdownDeadline = try RelayShutdownDeadlineOption(parsing: arguments)
        metrics = try MetricsAddressOption(parsing: arguments)
    }

    func validate() throws {
        try options.validate()
    }

    func run(in context: CommandContext) async throws {
        let environment = context.environment
        var configuration = try options.configuration(in: context)
        let seconds = try SettingResolver(environment: environment).value(
            option: scanInterval, variable: RelayServeCommand.scanIntervalVariable, default: 60,
            as: RelayServeCommand.secondsFormat)
        configuration.scanInterval = .seconds(max(1, seconds))
        configuration.shutdownDeadline = try shutdownDeadline.deadline(environment: environment)
        configuration.metricsAddress = try metrics.resolved(
            variable: RelayServeCommand.metricsVariable, environment: environment)
        RelayServiceOptions.createDefaultFolders(for: configuration, environment: environment)
        let service = try await RelayService(configuration: configuration)
        try await service.runCrawler()
    }
}
