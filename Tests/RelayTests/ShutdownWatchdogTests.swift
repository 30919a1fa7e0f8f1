import Foundation
import HTTPClient
import HTTPCore
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hard stop deadline (security issue item 12), with the built binary: a registration hangs on a feed
/// server that accepts connections and never answers, SIGTERM arrives, and the process must be gone by
/// `--shutdown-deadline` even though the request in flight would keep a graceful stop waiting longer.
@Suite(.timeLimit(.minutes(1)))
struct ShutdownWatchdogTests {
    @Test(.enabled(if: RelayCommandTests.isBuilt)) func aStuckStopEndsAtTheDeadline() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("relay-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let peers = home.appendingPathComponent("peers.txt")
        try Data().write(to: peers)
        let silent = try SilentServer()
        defer { silent.stop() }
        let server = try SpawnedServer(
            executable: RelayCommandTests.binary,
            arguments: [
                "relay", "serve", "--db", home.appendingPathComponent("relay.sqlite").path, "--port", "0",
                "--scan-interval", "0", "--relay-list", peers.path, "--allow-private-addresses",
                "--shutdown-deadline", "1",
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        let process = server.process
        let port = try #require(server.port)
        // A registration whose validation fetch waits on the silent server (5 s idle, 15 s in all).
        // (Our own transport, not URLSession: cancelling a URLSession task whose connection the relay
        // drops at exit can deadlock inside FoundationNetworking.)
        let registrationURL = try #require(URL(string: "http://127.0.0.1:\(port)/feeds/"))
        let registration = Task {
            _ = try? await CurlTransport().send(
                HTTPClientRequest(
                    method: .post, url: registrationURL, headers: ["Content-Type": "application/json"],
                    body: Array(#"{"feed": "http://127.0.0.1:\#(silent.port)/social.org"}"#.utf8)))
        }
        defer { registration.cancel() }
        // SIGTERM once the relay's validation fetch is connected and waiting for an answer.
        _ = await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(20)) {
            silent.acceptedCount > 0
        }
        try #require(silent.acceptedCount > 0)
        try await Task.sleep(for: .milliseconds(100))

        let clock = ContinuousClock()
        let start = clock.now
        kill(process.processIdentifier, SIGTERM)
        _ = await eventually(timeout: .seconds(10), pollingEvery: .milliseconds(20)) { !process.isRunning }
        let elapsed = clock.now - start
        #expect(!process.isRunning)
        // A relay that did not exit fails the test instead of holding it until its time limit.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        #expect(elapsed < .seconds(3), "\(elapsed)")
        #expect(process.terminationStatus == 1)
        server.readToEnd()
        #expect(server.log.contains("the process exits after 1 s at the latest"))
        #expect(server.log.contains("relay stop took longer than 1 s (--shutdown-deadline); exiting now with status 1"))
    }
}
