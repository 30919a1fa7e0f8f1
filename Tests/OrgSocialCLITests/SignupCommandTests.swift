import Foundation
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

/// `orgsocial signup` against the fake Host API.
struct SignupCommandTests {
    @Test func savesTheVfileWithMode0600AndPrintsOnlyThePublicURL() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let result = await runCLIOverCurl(
                ["signup", "--host", server.url("/").absoluteString, "--nick", "ana"], environment: home.homeEnvironment
            )
            #expect(result.status == 0)
            #expect(result.output == server.url("/ana/social.org").absoluteString + "\n")
            let account = try #require(await server.state.accounts.first)
            #expect(!result.output.contains(account.vfile))
            #expect(!result.error.contains(account.vfile))
            #expect(result.error.contains("Keep it secret"))
            let path = home.path(".config/orgsocial/config.json")
            #expect(try permissions(of: path) == 0o600)
            let configuration = try #require(ConfigurationFile(environment: home.homeEnvironment)).load()
            #expect(configuration.publish?.method == "host")
            #expect(configuration.publish?.vfile == account.vfile)
            #expect(configuration.publish?.publicURL == server.url("/ana/social.org").absoluteString)
            #expect(configuration.feedURL == server.url("/ana/social.org").absoluteString)
        }
    }

    @Test func showVfilePrintsItAndASecondSignupNeedsForce() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let host = server.url("/").absoluteString
            let first = await runCLIOverCurl(
                ["signup", "--host", host, "--nick", "ana", "--show-vfile"], environment: home.homeEnvironment)
            let vfile = try #require(await server.state.accounts.first?.vfile)
            #expect(first.output == server.url("/ana/social.org").absoluteString + "\n" + vfile + "\n")

            let again = await runCLIOverCurl(
                ["signup", "--host", host, "--nick", "bob"], environment: home.homeEnvironment)
            #expect(again.status == 1)
            #expect(
                again.error.hasPrefix("Error: '\(home.path(".config/orgsocial/config.json"))' already holds a vfile"))
            #expect(await server.state.accounts.count == 1)

            let forced = await runCLIOverCurl(
                ["signup", "--host", host, "--nick", "bob", "--force"], environment: home.homeEnvironment)
            #expect(forced.status == 0)
            let configuration = try #require(ConfigurationFile(environment: home.homeEnvironment)).load()
            #expect(configuration.publish?.vfile == (await server.state.accounts.last?.vfile))
        }
    }

    @Test func serverErrorsAndBadInputAreReported() async throws {
        try await FakeFeedServer.with { server in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let host = server.url("/").absoluteString
            _ = try await makePublisher().signup(host: server.url("/"), nick: "taken")
            let taken = await runCLIOverCurl(
                ["signup", "--host", host, "--nick", "taken"], environment: home.homeEnvironment)
            #expect(taken.status == 1)
            #expect(taken.error.contains("Nickname 'taken' is already taken"))
            #expect(!FileManager.default.fileExists(atPath: home.path(".config/orgsocial/config.json")))

            let badNick = await runCLIOverCurl(
                ["signup", "--host", host, "--nick", "a b"], environment: home.homeEnvironment)
            #expect(badNick.status == 2)
            #expect(badNick.error.hasPrefix("Error: The value 'a b' is invalid for '--nick <nick>'."))

            let badHost = await runCLIOverCurl(["signup", "--host", "host.example.org", "--nick", "ana"])
            #expect(badHost.status == 2)

            let noHome = await runCLIOverCurl(["signup", "--host", host, "--nick", "nohome"])
            #expect(noHome.status == 1)
            #expect(noHome.error.contains("HOME is not set"))
        }
    }
}
