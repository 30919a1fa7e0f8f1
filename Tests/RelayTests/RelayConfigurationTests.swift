import Foundation
import Relay
import RelayCore
import TestSupport
import Testing

/// `RelayConfiguration`'s parsing and defaults, and the pass summary the database keeps.
struct RelayConfigurationTests {
    @Test func groupsAreSplitOnCommasAndTrimmed() {
        #expect(RelayConfiguration.groups(parsing: "Emacs,Org Social") == ["Emacs", "Org Social"])
        #expect(RelayConfiguration.groups(parsing: " Emacs , Org Social,, ") == ["Emacs", "Org Social"])
        #expect(RelayConfiguration.groups(parsing: "") == [])
    }

    @Test func theDefaultDatabaseFollowsXDGDataHomeThenHome() {
        #expect(
            RelayConfiguration.defaultDatabasePath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ana"])
                == "/data/orgsocial/relay.sqlite")
        // A relative XDG_DATA_HOME is invalid by the XDG rules and ignored.
        #expect(
            RelayConfiguration.defaultDatabasePath(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/ana"])
                == "/home/ana/.local/share/orgsocial/relay.sqlite")
        #expect(RelayConfiguration.defaultDatabasePath(environment: [:]) == nil)
    }

    @Test func peerRelaysComeFromTheListTheFileOrTheDefaults() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var configuration = RelayConfiguration(databasePath: ":memory:")
        #expect(
            try configuration.resolvedPeerRelays() == ["https://relay.org-social.org", "https://orgs-relay.adsan.dev"])
        configuration.relayListPath = try folder.write(
            "# peers\nhttps://a.example\n\n  relay.b.example  \n", to: "relay-list.txt")
        #expect(try configuration.resolvedPeerRelays() == ["https://a.example", "relay.b.example"])
        configuration.peerRelays = []
        #expect(try configuration.resolvedPeerRelays() == [])
        configuration.peerRelays = nil
        configuration.relayListPath = "\(folder.path)/missing.txt"
        #expect(throws: RelayServiceError.self) { try configuration.resolvedPeerRelays() }
    }

    @Test func siteDomainAndScanIntervalDefaults() {
        var configuration = RelayConfiguration(databasePath: ":memory:")
        #expect(configuration.effectiveSiteDomain() == "localhost:8080")
        #expect(configuration.effectiveSiteDomain(boundPort: 41234) == "localhost:41234")
        configuration.siteDomain = "relay.example.org"
        #expect(configuration.effectiveSiteDomain(boundPort: 41234) == "relay.example.org")
        #expect(configuration.effectiveScanInterval == .seconds(60))
        configuration.scanInterval = .zero
        #expect(configuration.effectiveScanInterval == nil)
        configuration.scanInterval = nil
        #expect(configuration.effectiveScanInterval == nil)
    }

    @Test func aPassSummaryRoundTripsThroughTheDatabaseText() throws {
        var report = RelayScanReport()
        report.feeds = 4
        report.fetched = 1
        report.notModified = 2
        report.failed = 1
        report.postsAdded = 3
        report.duration = .milliseconds(1500)
        report.failures = ["https://gone.example/social.org": "URL returned status code 404"]
        let summary = RelayPassSummary(report: report, finishedAt: Date(timeIntervalSince1970: 1_795_973_544))
        #expect(summary.finishedAt == "2026-11-29T17:32:24Z")
        #expect(summary.durationSeconds == 1.5)
        let restored = try #require(RelayPassSummary(storedText: summary.storedText()))
        #expect(restored == summary)
        #expect(RelayPassSummary(storedText: "not json") == nil)
    }

    @Test func aPassSummaryKeepsDiscoveryApartFromCrawling() throws {
        var report = RelayScanReport()
        report.duration = .milliseconds(3500)
        report.discoveryDuration = .milliseconds(3000)
        let summary = RelayPassSummary(report: report, finishedAt: Date(timeIntervalSince1970: 1_795_973_544))
        #expect(summary.discoverySeconds == 3)
        #expect(summary.crawlSeconds == 0.5)
        let older = try #require(
            RelayPassSummary(
                storedText: #"{"bytesDownloaded":0,"discovered":0,"dropped":0,"durationSeconds":2,"failed":0,"#
                    + #""failures":{},"feeds":0,"fetched":0,"finishedAt":"2026-11-29T17:32:24Z","notModified":0,"#
                    + #""postsAdded":0,"postsChanged":0,"postsRemoved":0,"skipped":0}"#))
        #expect(older.discoverySeconds == nil)
        #expect(older.crawlSeconds == 2)
    }

    @Test func aFileThatIsNotADatabaseGetsOneHint() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(String(repeating: "not a database ", count: 20), to: "relay.sqlite")
        do {
            _ = try await RelayService(configuration: RelayConfiguration(databasePath: path))
            Issue.record("a file that is not a database opened")
        } catch {
            let text = error.localizedDescription
            #expect(text.contains("restore it from a backup"))
            #expect(!text.contains("writable"))
            #expect(!text.contains("--db"))
        }
    }

    @Test func errorsDescribeTheProblemWithoutNamingTheCommandsOptions() {
        let database = RelayServiceError.cannotOpenDatabase(path: "/x/relay.sqlite", reason: "unable to open file")
        #expect(
            database.localizedDescription == "Cannot open the relay database '/x/relay.sqlite': unable to open file.")
        let list = RelayServiceError.cannotReadRelayList(path: "peers.txt", reason: "no such file")
        #expect(
            list.localizedDescription
                == "Cannot read the relay list 'peers.txt': no such file. It must be a readable file with one relay "
                + "URL per line.")
        let missing = RelayServiceError.databaseMissing(path: "/x/relay.sqlite")
        #expect(
            missing.localizedDescription
                == "There is no relay database at '/x/relay.sqlite': the file does not exist, and reading it does not "
                + "create it; a relay creates its database when it starts.")
        for error in [database, list, missing] {
            #expect(!error.localizedDescription.contains("--"))
            #expect(!error.localizedDescription.contains("ORGSOCIAL_"))
        }
    }

    @Test func aRelayListThatCannotBeReadIsNamedWithWhyInOneSentence() throws {
        let folder = FileManager.default.temporaryDirectory.path
        for (path, reason) in [("/nonexistent/peers.txt", "no such file"), (folder, "it is a folder, not a file")] {
            var configuration = RelayConfiguration(databasePath: ":memory:")
            configuration.relayListPath = path
            #expect {
                _ = try configuration.resolvedPeerRelays()
            } throws: { error in
                error.localizedDescription
                    == "Cannot read the relay list '\(path)': \(reason). It must be a readable file with one relay "
                    + "URL per line."
            }
        }
    }
}
