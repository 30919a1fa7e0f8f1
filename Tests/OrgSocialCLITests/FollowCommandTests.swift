import OrgSocial
import TestSupport
import Testing

/// `orgsocial follow` and `orgsocial unfollow`.
struct FollowCommandTests {
    @Test func followsWithAndWithoutLabelAndUnfollowsByURLOrLabel() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let bob = "https://bob.example.org/social.org"
        let carla = "https://carla.example.net/social.org"
        let followed = await runCLI(["follow", "--file", file, bob])
        #expect(followed.status == 0)
        #expect(followed.output == "\(bob)\n")
        #expect(await runCLI(["follow", "--file", file, carla, "--label", "carla-bread"]).status == 0)
        #expect(
            try folder.text("social.org") == """
                #+TITLE: Ana's journal
                #+NICK: ana
                #+FOLLOW: \(bob)
                #+FOLLOW: carla-bread \(carla)

                * Posts

                """)
        let unfollowLabel = await runCLI(["unfollow", "--file", file, "carla-bread"])
        #expect(unfollowLabel.status == 0)
        #expect(unfollowLabel.output.isEmpty)
        #expect(await runCLI(["unfollow", "--file", file, bob]).status == 0)
        #expect(try folder.text("social.org") == "#+TITLE: Ana's journal\n#+NICK: ana\n\n* Posts\n")
    }

    @Test func reportsDuplicatesUnknownTargetsAndBadURLs() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let bob = "https://bob.example.org/social.org"
        #expect(await runCLI(["follow", "--file", file, bob]).status == 0)
        let before = try folder.bytes("social.org")
        let again = await runCLI(["follow", "--file", file, bob])
        #expect(again.status == 1)
        #expect(again.error == "Error: This feed already follows \(bob).\n")
        let unknown = await runCLI(["unfollow", "--file", file, "nobody"])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("Error: This feed follows nothing matching 'nobody'."))
        let badURL = await runCLI(["follow", "--file", file, "bob.example.org"])
        #expect(badURL.status == 2)
        #expect(badURL.error.hasPrefix("Error: The value 'bob.example.org' is invalid for '<url>'."))
        #expect(await runCLI(["follow", "--file", file]).status == 2)
        #expect(try folder.bytes("social.org") == before)
    }

    @Test func refusesALabelWithWhitespaceThatReadersWouldSplit() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")
        for label in ["Bob (work)", "Bob\twork"] {
            let result = await runCLI([
                "follow", "--file", file, "https://bob.example.org/social.org", "--label", label,
            ])
            #expect(result.status == 2, "\(label): \(result.error)")
            #expect(result.error.contains("A label is one word"), "\(result.error)")
        }
        #expect(try folder.bytes("social.org") == before)
        var feed = try #require(OrgSocialParser().parse(bytes: before) as Feed?)
        #expect(throws: OrgSocialError.self) {
            try feed.follow("https://bob.example.org/social.org", label: "Bob (work)")
        }
    }

    @Test func aURLWithAPasswordOrAPortThatCannotExistIsAUsageError() async throws {
        let (folder, file) = try await makeFeedFolder()
        defer { folder.remove() }
        let before = try folder.bytes("social.org")

        let password = await runCLI(["follow", "--file", file, "https://bob:secret@bob.example.org/social.org"])
        let port = await runCLI(["follow", "--file", file, "https://bob.example.org:99999/social.org"])

        #expect(password.status == 2)
        #expect(password.error.contains("A feed URL carries no user name or password"))
        #expect(port.status == 2)
        #expect(port.error.contains("ports run from 1 to 65535"), "\(port.error)")
        #expect(try folder.bytes("social.org") == before)
    }
}
