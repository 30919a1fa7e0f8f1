import Foundation
import TestSupport
import Testing

/// Commands that only read a relay database (`relay stats --db`) never create one.
struct RelayReadOnlyDatabaseTests {
    @Test func relayStatsOnAMissingDatabaseSaysSoAndCreatesNothing() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let missing = home.path + "/typo/relay.sqlite"
        for arguments in [["relay", "stats", "--db", missing], ["relay", "stats", "--db", missing, "--json"]] {
            let result = await runCLI(arguments, environment: ["HOME": home.path])
            #expect(result.status == 1)
            #expect(result.output.isEmpty)
            #expect(
                result.error.hasPrefix(
                    "Error: There is no relay database at '\(missing)': the file does not exist, and reading it "
                        + "does not create it; a relay creates its database when it starts. Give the path of the "
                        + "relay's database with --db PATH (or $ORGSOCIAL_RELAY_DB), or create it by starting a relay: "
                        + "'orgsocial relay serve --db PATH'.\n"))
        }
        let named = await runCLI(["relay", "stats"], environment: ["HOME": home.path, "ORGSOCIAL_RELAY_DB": missing])
        #expect(named.status == 1)
        #expect(named.error.contains("There is no relay database at '\(missing)'"))
        #expect(!FileManager.default.fileExists(atPath: missing))
        #expect(!FileManager.default.fileExists(atPath: home.path + "/typo"))
    }
}
