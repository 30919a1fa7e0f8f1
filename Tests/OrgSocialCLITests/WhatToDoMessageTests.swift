import Foundation
import TestSupport
import Testing

/// Commands a new user runs without what they need: each says what is wrong and what to do, in one
/// message, before reading or writing anything.
struct WhatToDoMessageTests {
    /// The test environment with an empty configuration folder, so no setting comes from the machine.
    func withEmptyConfiguration(_ body: ([String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = testEnvironment
        environment["XDG_CONFIG_HOME"] = folder.path
        environment["HOME"] = folder.path
        try await body(environment)
    }

    @Test func searchWithNothingToSearchForShowsBothWaysToSearch() async {
        let result = await runCLI(["search", "--relay", "http://127.0.0.1:1"])

        #expect(result.status == 2)
        #expect(
            result.error.hasPrefix(
                "Error: Nothing to search for. Give the text to look for ('orgsocial search emacs') or a tag "
                    + "('orgsocial search --tag emacs')."))
        let both = await runCLI(["search", "emacs", "--tag", "emacs", "--relay", "http://127.0.0.1:1"])
        #expect(both.status == 2)
        #expect(both.error.hasPrefix("Error: Give either the text to search for or --tag <tag>, not both"))
    }

    @Test func notificationsWithoutAFeedURLSayWhyItIsNeededAndHowToGiveIt() async throws {
        try await withEmptyConfiguration { environment in
            let (folder, file) = try await makeFeedFolder()
            defer { folder.remove() }
            for arguments in [["notifications"], ["notifications", "--file", file], ["notifications", "--no-relay"]] {
                let result = await runCLI(arguments, environment: environment)

                // A usage error: an option (or setting) is missing, nothing failed.
                #expect(result.status == 2, "\(arguments)")
                #expect(result.output.isEmpty)
                #expect(
                    result.error.hasPrefix(
                        "Error: Notifications are the posts that name your feed's URL, and no feed URL is "
                            + "configured. Give it with --feed-url URL, set ORGSOCIAL_FEED_URL, or save it with "
                            + "'orgsocial config set feedURL URL' ('orgsocial signup' does it for a new feed).\n"
                            + "Usage: orgsocial notifications "),
                    "\(arguments)")
            }
        }
    }

    @Test func configGetOfAnUnsetKeyPrintsNothingAndSaysHowToSetIt() async throws {
        try await withEmptyConfiguration { environment in
            let result = await runCLI(["config", "get", "feedURL"], environment: environment)

            #expect(result.status == 1)
            #expect(result.output.isEmpty)
            #expect(
                result.error
                    == "Error: The setting 'feedURL' has no value (ORGSOCIAL_FEED_URL is not set, and the "
                    + "configuration file has none). Set it with 'orgsocial config set feedURL <value>'.\n")
        }
    }

    @Test func serveRootThatDoesNotExistOrIsAFileSaysWhich() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = folder.path("missing")
        let file = try folder.write("not a folder", to: "file")

        for arguments in [["serve", "--root", missing, "--port", "0"], ["serve", "token", "--root", missing]] {
            let result = await runCLI(arguments + (arguments[1] == "token" ? ["--feed", "social.org"] : []))
            #expect(result.status == 1)
            #expect(
                result.error.hasPrefix(
                    "Error: The feed root '\(missing)' does not exist. Create it ('mkdir -p \(missing)'), or pass "
                        + "an existing folder with --root."))
        }
        let notAFolder = await runCLI(["serve", "--root", file, "--port", "0"])
        #expect(notAFolder.status == 1)
        #expect(
            notAFolder.error.hasPrefix(
                "Error: The feed root '\(file)' is a file, not a folder. Pass the folder that holds the feeds with "
                    + "--root."))
    }
}
