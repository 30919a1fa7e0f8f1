import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// SIGHUP to `relay serve` and `relay crawl`, through the built binary: the relay list is read again, and
/// a list that cannot be read leaves the peers as they were.
@Suite(.timeLimit(.minutes(2)))
struct RelayReloadTests {
    @Test(.enabled(if: RelayCommandTests.isBuilt), arguments: [["serve", "--port", "0"], ["crawl"]])
    func sighupReadsTheRelayListAgainAndKeepsItWhenUnreadable(command: [String]) async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let peers = try home.write("", to: "peers.txt")
        let server = try SpawnedServer(
            executable: RelayCommandTests.binary,
            arguments: ["relay"] + command + [
                "--db", "\(home.path)/db/relay.sqlite", "--scan-interval", "3600", "--relay-list", peers,
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        #expect(server.firstLine.hasSuffix("peers none)"), "\(server.log)")

        _ = try home.write("peer-a.example\nhttps://peer-b.example/\n", to: "peers.txt")
        kill(server.process.processIdentifier, SIGHUP)
        let reloaded = await eventually {
            !server.logLines(startingWith: "relay reloaded peers=").isEmpty
        }
        try FileManager.default.removeItem(atPath: peers)
        kill(server.process.processIdentifier, SIGHUP)
        let refused = await eventually {
            !server.logLines(startingWith: "relay reload failed, settings unchanged reason=").isEmpty
        }
        let running = server.process.isRunning
        #expect(server.terminate() == 0)

        #expect(reloaded, "\(server.log)")
        #expect(
            server.logLines(startingWith: "relay reloaded peers=")
                == ["relay reloaded peers=http://peer-a.example https://peer-b.example"])
        #expect(refused, "\(server.log)")
        #expect(running)
        let failure = try #require(server.logLines(startingWith: "relay reload failed").first)
        #expect(failure.contains("peers.txt"), "\(failure)")
    }
}
