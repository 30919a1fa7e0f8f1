import Foundation
import HTTPClient
import Relay
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

/// The admin commands and the running relay share their settings, a scan never blames a feed for its own
/// settings, and a feed registered with a crawling relay is indexed at once.
@Suite(.timeLimit(.minutes(2)))
struct RelaySettingsTests {
    /// An environment whose HOME is `folder` (no user configuration or relay is picked up).
    private func environment(_ folder: TemporaryFolder) -> [String: String] {
        ["HOME": folder.path, "XDG_DATA_HOME": folder.path("data")]
    }

    @Test func aScanNeverMarksFailingTheFeedsItsOwnSettingsRefuse() async throws {
        try await withTestbed { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let database = bed.configuration.databasePath
            let env = environment(home)
            let added = await runCLI(
                ["relay", "add-feed", bed.alice, "--db", database, "--allow-private-addresses"], environment: env)
            #expect(added.status == 0, "\(added.error)")

            // The relay was started with --allow-private-addresses; this scan was not given it.
            let scan = await runCLI(
                ["relay", "scan", "--db", database, "--relay-list", "/dev/null", "--no-discovery"], environment: env)
            #expect(scan.status == 0, "\(scan.error)")
            #expect(scan.output.contains(": 0 fetched, 0 not modified, 0 waiting (back-off), 0 failed.\n"))
            #expect(scan.output.contains("Not fetched: 1 feed on addresses this scan's settings refuse"))
            #expect(scan.output.contains("refused: \(bed.alice): refusing to fetch"))
            let stats = await runCLI(["relay", "stats", "--db", database, "--json"], environment: env)
            let summary = try JSONObject(Array(stats.output.utf8))
            #expect(summary.objects("failingFeeds").isEmpty)
            // Nothing to back off from: the running relay's next pass fetches the feed.
            let pass = await bed.relay.scanOnce()
            #expect(pass.fetched == 1)
            #expect(pass.skipped == 0)
        }
    }

    @Test func theAdminCommandsReadThePrivateAddressSwitchFromTheEnvironment() async throws {
        try await withTestbed { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }
            var env = environment(home)
            env["ORGSOCIAL_RELAY_DB"] = bed.configuration.databasePath
            env["ORGSOCIAL_RELAY_LIST"] = "/dev/null"
            env["ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES"] = "1"
            let added = await runCLI(["relay", "add-feed", bed.alice], environment: env)
            #expect(added.status == 0, "\(added.error)")
            let scan = await runCLI(["relay", "scan", "--json", "--no-discovery"], environment: env)
            #expect(scan.status == 0, "\(scan.error)")
            // alice, and bob and carol whom the follows discovery finds in her feed.
            let report = try JSONObject(Array(scan.output.utf8))
            #expect(report.int("fetched") == 3)
            #expect(report.int("failed") == 0)

            env["ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES"] = "sometimes"
            let bad = await runCLI(["relay", "scan"], environment: env)
            #expect(bad.status != 0)
            #expect(bad.error.contains("ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES is 'sometimes'"))
        }
    }

    @Test func aFeedRegisteredWithACrawlingRelayIsSearchableWithinSeconds() async throws {
        // Passes an hour apart: only the registration's own crawl can index the feed during the test.
        try await withTestbed(scanInterval: .seconds(3600)) { bed in
            #expect(await eventually { (try? await bed.relay.summary().lastPass) != nil })
            let created = try await bed.post("/feeds/", json: #"{"feed": "\#(bed.alice)"}"#)
            #expect(created.status == 201)
            #expect(created.text == #"{"type":"Success","errors":[],"data":{"feed":"\#(bed.alice)"}}"#)
            let indexed = await eventually(timeout: .seconds(10)) {
                let search = try? await bed.object("/search/?q=welcome")
                return search?.strings("data") == ["\(bed.alice)#2025-02-01T10:00:00+0100"]
            }
            #expect(indexed)
            #expect(try await bed.object("/profile/?feed=\(encoded(bed.alice))").object("data") != nil)
        }
    }
}
