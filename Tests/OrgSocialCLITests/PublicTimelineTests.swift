import Foundation
import TestSupport
import Testing

/// `orgsocial timeline` with no configuration at all: the default relay's public timeline (the default
/// relay is an in-process fake here, through `ORGSOCIAL_DEFAULT_RELAY`), and what happens when it is down.
@Suite("Zero-configuration public timeline")
struct PublicTimelineTests {
    @Test func withNothingConfiguredTheTimelineReadsTheDefaultRelaysFeeds() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set(
                "/ana.org", feedText(nick: "ana", posts: [("2026-01-01T10:00:00+0000", [:], "Hello from ana.")]))
            await farm.state.set(
                "/bob.org", feedText(nick: "bob", posts: [("2026-01-01T11:00:00+0000", [:], "Hello from bob.")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                await relay.state.success(
                    "/feeds/", data: "[\"\(farm.url("/ana.org"))\", \"\(farm.url("/bob.org"))\"]")
                let environment = folder.homeEnvironment.merging(["ORGSOCIAL_DEFAULT_RELAY": relay.baseURL]) { $1 }
                let result = await runCLIOverCurl(["timeline"], environment: environment)
                #expect(result.status == 0)
                let bob = try #require(result.output.range(of: "Hello from bob."))
                let ana = try #require(result.output.range(of: "Hello from ana."))
                #expect(bob.lowerBound < ana.lowerBound)
                #expect(result.error.contains("this is the public timeline of \(relay.baseURL)"))
                #expect(result.error.contains("orgsocial signup"))
                #expect(await relay.state.requests.contains { $0.target.hasPrefix("/feeds") })
            }
        }
    }

    @Test func anUnreachableDefaultRelayWithoutFollowsSaysWhatToDo() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = await runCLIOverCurl(["timeline"], environment: folder.homeEnvironment)
        #expect(result.status == 1)
        #expect(result.output.isEmpty)
        #expect(
            result.error.contains("cannot read the public timeline: the relay http://127.0.0.1:1 could not be used"))
        #expect(result.error.contains("Check your network connection"))
        #expect(result.error.contains("--relay URL"))
        #expect(result.error.contains("orgsocial signup"))
    }

    @Test func aConfiguredFeedIsReadWithoutTheDefaultRelay() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            await farm.state.set(
                "/me.org", feedText(nick: "me", posts: [("2026-01-01T10:00:00+0000", [:], "My own post.")]))
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let environment = folder.homeEnvironment.merging([
                    "ORGSOCIAL_DEFAULT_RELAY": relay.baseURL, "ORGSOCIAL_FEED_URL": farm.url("/me.org"),
                ]) { $1 }
                let result = await runCLIOverCurl(["timeline", "--json"], environment: environment)
                #expect(result.status == 0)
                #expect(result.output.contains("My own post."))
                #expect(result.output.contains("\"source\" : \"follows\""))
                #expect(await relay.state.requests.isEmpty)
            }
        }
    }
}
