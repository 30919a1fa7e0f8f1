import Bridge
import Foundation
import HTTPCore
import HTTPServer
import Metrics
import Synchronization
import SystemSupport

/// `orgsocial bridge run --interval SECONDS`: `sync` in a loop, for a service. Each cycle takes the state
/// file's run lock (so a manual `bridge pull` waits its turn) and is recorded in the state; after a failure
/// the pause doubles, up to an hour; SIGTERM or SIGINT stops it at once, ending the cycle in progress at its
/// next request. The account list is read again before each cycle, and SIGHUP starts a cycle at once (after
/// the one in progress), so accounts added or removed meanwhile are picked up without a restart. Without
/// accounts it waits for one (saying so once), as a service would otherwise be restarted in a loop.
struct BridgeRunCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "run",
            abstract: "Sync every account in a loop until SIGTERM or SIGINT (for a service).",
            discussion: """
                Reads the account list again before each cycle, so accounts added or removed with \
                'bridge add-account' and 'remove-account' are picked up without a restart; SIGHUP starts \
                the next cycle at once. Without accounts it waits for the first one to be added. Logs to standard error, as text or (with --log-format json) one \
                JSON object per line.
                """,
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
            dryRun: false, lockWait: .seconds(lockWait), allowsNoAccounts: true, in: context)
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
        let (wakeUps, wakeUp) = AsyncStream.makeStream(of: Void.self)
        let hangUps = TerminationSignals([SIGHUP]) { _ in
            log.line("bridge run: SIGHUP; the next cycle starts now, with the accounts read again")
            wakeUp.yield()
        }
        defer { hangUps.restore() }
        log.line(
            "bridge run: every \(interval) s for \(cycle.accounts.isEmpty ? "no account yet" : Self.names(cycle.accounts)) "
                + "and \(cycle.feed.key); SIGHUP runs a cycle now; SIGTERM or SIGINT stops it")
        if cycle.accounts.isEmpty { log.line("bridge run: " + Self.waitingMessage) }
        if let metricsServer, let metricsAddress {
            log.line(
                "bridge run: metrics on "
                    + "\(ServeCommand.listenURL(host: metricsAddress.host, port: metricsServer.port))/metrics")
        }
        let accounts = Mutex(cycle.accounts.map(\.account.name))
        let reader = AccountReader(bridge: bridge, context: context)
        let worker = Task {
            await loop.run(
                cycle: {
                    do {
                        var current = cycle
                        current.accounts = try await reader.accounts(in: cycle.state)
                        let names = current.accounts.map(\.account.name)
                        let changed = accounts.withLock { known in
                            defer { known = names }
                            return known != names
                        }
                        if current.accounts.isEmpty {
                            if changed { log.line("bridge run: " + Self.waitingMessage) }
                            return true
                        }
                        if changed { log.line("bridge run: accounts now \(Self.names(current.accounts))") }
                        let records = try await current.run()
                        counters?.record(records)
                        for record in records { log.line("bridge run: " + BridgeCycleRunner.summary(record)) }
                        return records.allSatisfy { $0.error == nil }
                    } catch let error as CancellationError {
                        throw error
                    } catch {
                        log.line(
                            "bridge run: cycle failed: \(ErrorAdvice.message(BridgeCycle.describe(error), for: error))")
                        return false
                    }
                },
                waiting: { pause, failures in
                    if failures > 0 {
                        log.line("bridge run: \(failures) failed in a row; next cycle in \(pause.components.seconds) s")
                    }
                }, wakeUps: wakeUps)
        }
        // The loop ends only when cancelled: the first signal does that.
        if let number = await signals.next() { log.line("bridge run: stopping (signal \(number))") }
        worker.cancel()
        await worker.value
        await metricsServer?.stop(gracePeriod: .zero)
        log.line("bridge run: stopped")
    }

    /// What the log says once while there is no account.
    static let waitingMessage =
        BridgeOptions.noAccountsMessage + " Waiting for one: the accounts are read again before each cycle "
        + "(SIGHUP starts one now)."

    /// `alice@a.example, bob@b.example`.
    private static func names(_ accounts: [BridgeAccountClient]) -> String {
        accounts.map(\.account.name).joined(separator: ", ")
    }
}

/// Reads `bridge run`'s account list again before each cycle.
///
/// `@unchecked Sendable`: the command's context is not `Sendable` (its closures), but the run loop calls
/// ``accounts(in:)`` from one cycle at a time, never two at once, and the context is only read.
private final class AccountReader: @unchecked Sendable {
    private let bridge: BridgeFeedOptions
    private let context: CommandContext

    /// Makes a reader for the command's options and context.
    init(bridge: BridgeFeedOptions, context: CommandContext) {
        self.bridge = bridge
        self.context = context
    }

    /// The accounts as the state and the configuration file list them now.
    /// - Throws: as ``BridgeFeedOptions/accounts(in:context:)``.
    func accounts(in state: BridgeState) async throws -> [BridgeAccountClient] {
        try await bridge.accounts(in: state, context: context)
    }
}
