import Bridge
import Foundation
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

    init(parsing arguments: ParsedArguments) throws {
        bridge = BridgeFeedOptions(parsing: arguments)
        interval = try ServeCommand.integer(
            arguments.value("interval") ?? "300", option: "--interval <seconds>", range: 1...86_400)
        maximum = try BridgeFeedOptions.maximum(arguments.value("max"))
        lockWait = try ServeCommand.integer(
            arguments.value("wait") ?? "60", option: "--wait <seconds>", range: 0...86_400)
        push = BridgePushCommand.pushOptions(parsing: arguments, max: maximum, since: nil)
    }

    func validate() throws { try bridge.validate() }

    func run(in context: CommandContext) async throws {
        let log = SerializedOutput(context.writeStandardError)
        let options = PullOptions(maxStatuses: maximum, timeZone: context.timeZone)
        let cycle = try await BridgeCycleRunner.cycle(
            bridge: bridge,
            steps: BridgeSyncCommand.steps(pull: options, push: push, feedPath: bridge.file, in: context),
            dryRun: false, lockWait: .seconds(lockWait), in: context)
        try BridgePushCommand.requireFeedURL(of: cycle)
        let loop = BridgeRunLoop(interval: .seconds(interval))
        let signals = TerminationSignals()
        defer { signals.restore() }
        log.line(
            "bridge run: every \(interval) s for \(cycle.accounts.map(\.account.name).joined(separator: ", ")) and "
                + "\(cycle.feed.key); SIGTERM or SIGINT stops it")
        let worker = Task {
            await loop.run(
                cycle: {
                    do {
                        let records = try await cycle.run()
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
        log.line("bridge run: stopped")
    }
}
