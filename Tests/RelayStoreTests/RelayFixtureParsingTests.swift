import OrgSocial
import RelayTestFixtures
import Testing

/// The shared fixtures parse into the posts the §7 scenario needs.
@Suite struct RelayFixtureParsingTests {
    let base = "http://127.0.0.1:8801"

    @Test func fixturePostIDsAreTheScenarioTimestamps() {
        let alice = Feed(parsing: RelayFixtures.alice(base: base))
        let bob = Feed(parsing: RelayFixtures.bob(base: base))
        let carol = Feed(parsing: RelayFixtures.carol(base: base))
        #expect(
            alice.posts.compactMap(\.id) == [
                "2025-02-01T10:00:00+0100", "2025-02-02T09:00:00+0100", "2025-02-03T12:00:00+0100",
            ])
        #expect(
            bob.posts.compactMap(\.id) == [
                "2025-02-01T11:00:00+0100", "2025-02-01T11:05:00+0100", "2025-02-02T10:00:00+0100",
                "2025-02-02T11:00:00+0100", "2025-02-03T13:00:00+0100", "2025-02-05T09:00:00+0100",
            ])
        #expect(
            carol.posts.compactMap(\.id) == [
                "2025-02-01T07:00:00-0500", "2025-02-01T07:30:00-0500", "2025-02-04T18:00:00-0500",
            ])
        #expect(alice.profile.follows.count == 2)
        #expect(bob.posts[1].mood == "❤")
        #expect(bob.posts[1].hasEmptyBody)
        #expect(alice.posts[1].pollOptions == ["Emacs", "Vim", "Other"])
        #expect(alice.posts[0].mentions.first?.feedURL == RelayFixtures.bobURL(base: base))
    }

    @Test func daveHasNoBasicMetadata() {
        let dave = Feed(parsing: RelayFixtures.dave(base: base))
        #expect(dave.profile.title == nil && dave.profile.nick == nil && dave.profile.description == nil)
        #expect(RelayFixtures.all(base: base).count == 4)
    }
}
