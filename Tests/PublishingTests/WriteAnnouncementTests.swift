import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// After a write the mirror is asked to read the feed again, every time, and the configured relay gets
/// the feed once; neither can fail the write. Against a real node, with recording servers in place of
/// the mirror and the relay.
struct WriteAnnouncementTests {
    @Test func everyWriteTellsTheMirrorAndTheFirstRegistersTheFeedWithTheRelay() async throws {
        try await withNode { node in
            try await withServer(try RecordingServer()) { mirror in
                try await withServer(try RecordingServer()) { relay in
                    let home = try TemporaryFolder()
                    defer { home.remove() }
                    let feedURL = node.url("/ana/social.org").absoluteString
                    try node.root.write(emptyFeed(nick: "ana"), to: "ana/social.org")
                    let file = try home.write(emptyFeed(nick: "ana"), to: "social.org")
                    let environment = [
                        "HOME": home.path, "ORGSOCIAL_FEED_URL": feedURL,
                        "ORGSOCIAL_TOKEN": try node.issueToken(folder: "ana"),
                        "ORGSOCIAL_MIRROR": mirror.url("/api"), "ORGSOCIAL_RELAY": relay.url("/"),
                    ]
                    let first = await runCLI(
                        ["post", "--file", file, "--text", "One", "--publish", "--verbose"], environment: environment)
                    #expect(first.status == 0, "\(first.error)")
                    #expect(first.error.contains("Mirror: \(mirror.url("/api")) was asked to read the feed again."))
                    #expect(first.error.contains("Relay: \(relay.url("/")) registered the feed."))
                    let second = await runCLI(
                        ["post", "--file", file, "--text", "Two", "--publish"], environment: environment)
                    #expect(second.status == 0, "\(second.error)")
                    #expect(!second.error.contains("Mirror:"))
                    #expect(
                        await mirror.log.bodies(at: "/api/webhook/refresh/") == [["feed": feedURL], ["feed": feedURL]])
                    #expect(await relay.log.bodies(at: "/feeds/") == [["feed": feedURL]])
                    #expect(Feed(parsing: node.fileText("ana/social.org") ?? "").posts.map(\.body) == ["One", "Two"])
                }
            }
        }
    }

    @Test func aMirrorThatFailsOrIsTurnedOffNeverFailsTheWrite() async throws {
        try await withNode { node in
            try await withServer(try RecordingServer()) { mirror in
                await mirror.log.answer(500)
                let home = try TemporaryFolder()
                defer { home.remove() }
                try node.root.write(emptyFeed(nick: "bo"), to: "bo/social.org")
                let file = try home.write(emptyFeed(nick: "bo"), to: "social.org")
                var environment = [
                    "HOME": home.path, "ORGSOCIAL_FEED_URL": node.url("/bo/social.org").absoluteString,
                    "ORGSOCIAL_TOKEN": try node.issueToken(folder: "bo"), "ORGSOCIAL_MIRROR": mirror.url("/api"),
                ]
                let failing = await runCLI(
                    ["post", "--file", file, "--text", "Still lands", "--publish", "--verbose"],
                    environment: environment)
                #expect(failing.status == 0, "\(failing.error)")
                #expect(failing.error.contains("could not be told"))
                #expect(failing.error.contains("HTTP 500"))
                #expect(await mirror.log.requests.count == 1)
                environment["ORGSOCIAL_MIRROR"] = "none"
                let off = await runCLI(
                    ["post", "--file", file, "--text", "Quietly", "--publish", "--verbose"], environment: environment)
                #expect(off.status == 0, "\(off.error)")
                #expect(off.error.contains("Mirror: none configured."))
                #expect(await mirror.log.requests.count == 1)
                #expect(node.fileText("bo/social.org")?.contains("Quietly") == true)
            }
        }
    }

    @Test func anUnreachableMirrorIsGivenUpAfterTheTimeout() async throws {
        let store = MergeBaseStore(folder: nil)
        let announcer = WriteAnnouncer(
            mirror: URL(string: "http://127.0.0.1:1/api"), relay: nil, remembering: store, timeout: .seconds(2))
        let report = await announcer.announce(try #require(URL(string: "http://127.0.0.1:1/social.org")))
        guard case .failed = report.mirror else {
            Issue.record("mirror: \(report.mirror)")
            return
        }
        #expect(report.relay == .notConfigured)
    }
}
