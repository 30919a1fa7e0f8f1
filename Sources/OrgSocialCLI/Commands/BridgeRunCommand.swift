import Bridge
import Foundation
import HTTPCore
import HTTPServer
import Metrics
import SystemSupport

/// `orgsocial bridge run --interval SECONDS`: `sync` in a loop, for a service. Each cycle takes the state
/// file's run lock (so a manual `bridge pull` waits its turn) and is recorded in the state; after a failure
/// the pause doubles, up to an hour; SIGTERM or SIGINT stops it at once, ending the cycle in progress at its
/// next request.
struct BridgeRunCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "run",
            abstract: "Sync every account in a loop until SIGTERM or SIGINT (for a service).",
            options: BridgeFeedOptions.definitions + BridgePushCommand.pushOnlyOptions + [
                .value(
                    "interval", valueName: "seconds", help: "The pause between two cycles (default: 300).",
                    defaultValue: "300"),
                .value(
                    "max", valueName: "count",
                    help: "Pull and push at most this many posts per account per cycle (default: 20)."),
                .value(
                    "wait", valueName: "seconds", help: "How long a cycle waits for another run's lock (default: 60)."),
                MetricsAddressOption.definition(variable: metricsVariable),
                LogFormatOption.definition(variable: logFormatVariable),
            ], handlesTerminationSignals: true)
    }

    /// The feed, account and state options.
    var bridge: BridgeFeedOptions
    /// `--interval`.
    var interval: Int
    /// `--max`.
    var maximum: Int
    /// `--wait`.
    var lockWait: Int
    /// The push's options.
    var push: PushOptions
    /// `--metrics-address`.
    var metrics: MetricsAddressOption
    /// `--log-format`.
    var logFormat: LogFormatOption

    /// The variable of `--metrics-address`.
    static let metricsVariable = "ORGSOCIAL_BRIDGE_METRICS_ADDRESS"
    /// The variable of `--log-format`.
    static let logFormatVariable = "ORGSOCIAL_BRIDGE_LOG_FORMAT"

    init(parsing arguments: ParsedArguments) throws {
        bridge = BridgeFeedOptions(parsing: arguments)
        interval = try ServeCommand.integer(
            arguments.value("interval") ?? "300", option: "--interval <seconds>", range: 1...86_400)
        maximum = try BridgeFeedOptions.maximum(arguments.value("max"))
        lockWait = try ServeCommand.integer(
            arguments.value("wait") ?? "60", option: "--wait <seconds>", range: 0...86_400)
        push = BridgePushCommand.pushOptions(parsing: arguments, max: maximum, since: nil)
        metrics = try MetricsAddressOption(parsing: arguments)
        logFormat = LogFormatOption(parsing: arguments)
    }

    func validate() throws { try bridge.validate() }

    func run(in context: CommandContext) async throws {
        let log = SerializedOutput(
            context.writeStandardError,
            format: try logFormat.resolved(variable: Self.logFormatVariable, environment: context.environment))
        let options = PullOptions(maxStatuses: maximum, timeZone: context.timeZone)
        let cycle = try await BridgeCycleRunner.cycle(
            bridge: bridge,
            steps: BridgeSyncCommand.steps(pull: options, push: push, feedPath: bridge.file, in: context),
            dryRun: false, lockWait: .seconds(lockWait), in: context)
        try BridgePushCommand.requireFeedURL(of: cycle)
        let metricsAddress = try metrics.resolved(variable: Self.metricsVariable, environment: context.environment)
        let counters = metricsAddress.map { _ in BridgeMetrics(accounts: cycle.accounts) }
        var metricsServer: HTTPDaemon?
        if let metricsAddress, let counters {
            // A taken or foreign address fails here, as `serve` does, with the server's own message.
            metricsServer = try HTTPDaemon(
                configuration: HTTPDaemon.Configuration(host: metricsAddress.host, port: metricsAddress.port),
                responder: MetricsResponder(registry: counters.registry))
        }
        let loop = BridgeRunLoop(interval: .seconds(interval))
        let signals = TerminationSignals()
        defer { signals.restore() }
        log.line(
            "bridge run: every \(interval) s for \(cycle.accounts.map(\.account.name).joined(separator: ", ")) and "
                + "\(cycle.feed.key); SIGTERM or SIGINT stops it")
        if let metricsServer, let metricsAddress {
            log.line(
                "bridge run: metrics on "
                    + "\(ServeCommand.listenURL(host: metricsAddress.host, port: metricsServer.port))/metrics")
        }
        let worker = Task {
            await loop.run(
                cycle: {
                    do {
                        let records = try await cycle.run()
                        counters?.record(records)
                        for record in records { log.line("bridge run: " + BridgeCycleRunner.summary(record)) }
                        return records.allSatisfy { $0.error == nil }
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                        log.line("bridge run: cycle failed: \(BridgeCycle.describe(error))")
                        return false
                    }
                },
                waiting: { pause, failures in
                    if failures > 0 {
                        log.line("bridge run: \(failures) failed in a row; next cycle in \(pause.components.seconds) s")
                    }
                })
        }
        // The loop ends only when cancelled: the first signal does that.
        if let number = await signals.next() { log.line("bridge run: stopping (signal \(number))") }
        worker.cancel()
        await worker.value
        await metricsServer?.stop(gracePeriod: .zero)
        log.line("bridge run: stopped")
    }
}
