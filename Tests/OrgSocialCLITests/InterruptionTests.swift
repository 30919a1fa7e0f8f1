import Foundation
import Relay
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C: the built binary, sent SIGINT while it waits for a slow server, exits with 130 at once and
/// prints nothing, whatever the command.
@Suite(.serialized)
struct InterruptionTests {
    static let binary = ServeCommandTests.binary
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    /// What an interrupted run did.
    private struct Interrupted {
        var status: Int32
        var output: String
        var error: String
        var secondsAfterSignal: Double
    }

    /// A farm with `/fast.org` and `/slow.org`; the next request for `/slow.org` after ``slowDown(_:)``
    /// is answered only after a minute.
    private func slowFarm(_ body: (FeedFarm) async throws -> Void) async throws {
        try await withFarm { farm in
            await farm.state.set("/fast.org", sampleFeed)
            await farm.state.set("/slow.org", sampleFeed)
            try await body(farm)
        }
    }

    /// Makes the next request for `/slow.org` wait a minute.
    private func slowDown(_ farm: FeedFarm) async {
        await farm.state.script("/slow.org", [.delay(.seconds(60))])
    }

    /// Starts the binary, sends `signal` once the slow request has arrived, and waits for the exit.
    private func interrupt(
        _ arguments: [String], farm: FeedFarm, folder: TemporaryFolder, signal: Int32 = SIGINT,
        environment: [String: String] = [:]
    ) async throws -> Interrupted {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = [
            "HOME": folder.path, "TZ": "UTC", "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000",
            "ORGSOCIAL_DEFAULT_RELAY": "http://127.0.0.1:1", "PATH": "/usr/bin:/bin",
            "ORGSOCIAL_DEFAULT_MIRROR": "none",
        ].merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        let earlier = await farm.state.requests(for: "/slow.org").count
        await slowDown(farm)
        try process.run()
        let arrived = await eventually(timeout: .seconds(20)) {
            await farm.state.requests(for: "/slow.org").count > earlier
        }
        #expect(arrived, "the command never asked the slow server")
        let sent = ContinuousClock.now
        kill(process.processIdentifier, signal)
        let finished = try await offPool {
            let output = stdout.fileHandleForReading.readDataToEndOfFile()
            let error = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, output, error)
        }
        let elapsed = (ContinuousClock.now - sent).components
        return Interrupted(
            status: finished.0, output: String(decoding: finished.1, as: UTF8.self),
            error: String(decoding: finished.2, as: UTF8.self),
            secondsAfterSignal: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func ctrlCStopsAFetchAtOnceWithStatus130() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await slowFarm { farm in
            let run = try await interrupt(["fetch", farm.url("/slow.org")], farm: farm, folder: folder)
            #expect(run.status == 130)
            #expect(run.output.isEmpty)
            #expect(run.error.isEmpty)
            #expect(run.secondsAfterSignal < 1.5)
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func sigtermStopsATimelineWithoutPartialResults() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await slowFarm { farm in
            let file = try folder.write(
                "#+TITLE: T\n#+NICK: t\n#+FOLLOW: \(farm.url("/fast.org"))\n#+FOLLOW: \(farm.url("/slow.org"))\n",
                to: "social.org")
            let run = try await interrupt(["timeline", "--file", file], farm: farm, folder: folder, signal: SIGTERM)
            #expect(run.status == 130)
            #expect(run.output.isEmpty)
            #expect(run.secondsAfterSignal < 1.5)
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func ctrlCStopsARelayScanInsteadOfFinishingThePass() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await slowFarm { farm in
            let database = folder.path("relay.sqlite")
            // A relay creates its database (`relay add-feed` and `scan` only open one).
            _ = try await RelayService(configuration: RelayConfiguration(databasePath: database))
            let add = Process()
            add.executableURL = Self.binary
            add.arguments = ["relay", "add-feed", "--db", database, "--allow-private-addresses", farm.url("/slow.org")]
            add.environment = ["HOME": folder.path]
            add.standardOutput = Pipe()
            add.standardError = Pipe()
            try add.run()
            try await offPool { add.waitUntilExit() }
            #expect(add.terminationStatus == 0)
            let peers = try folder.write("", to: "relays.txt")
            let run = try await interrupt(
                [
                    "relay", "scan", "--db", database, "--allow-private-addresses", "--no-discovery", "--relay-list",
                    peers,
                ], farm: farm,
                folder: folder)
            #expect(run.status == 130)
            #expect(run.output.isEmpty)
            #expect(run.secondsAfterSignal < 1.5)
        }
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func ctrlCDuringPostPublishSaysThePostIsSavedButNotPublished() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await slowFarm { farm in
            let file = try folder.write("#+TITLE: T\n#+NICK: t\n\n* Posts\n", to: "social.org")
            let run = try await interrupt(
                ["post", "--file", file, "--text", "Typed once", "--publish"], farm: farm, folder: folder,
                environment: ["ORGSOCIAL_FEED_URL": farm.url("/slow.org"), "ORGSOCIAL_TOKEN": "secret"])
            #expect(run.status == 130)
            #expect(run.output.isEmpty)
            #expect(
                run.error
                    == "Interrupted: the change is saved in '\(file)' but not published. Run 'orgsocial sync --file "
                    + "\(file)' to publish it (running the command again would make it twice).\n")
            #expect(try folder.text("social.org").contains("Typed once"))
            #expect(run.secondsAfterSignal < 1.5)
        }
    }
}
