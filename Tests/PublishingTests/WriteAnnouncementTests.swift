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
                        ["post", "--file", file, "--text", "Two", "--publish", "--json"], environment: environment)
                    #expect(second.status == 0, "\(second.error)")
                    #expect(!second.error.contains("Mirror:"))
                    let report = try JSONDecoder().decode(Report.self, from: Data(second.output.utf8))
                    #expect(report.address?.hasPrefix(feedURL + "#") == true)
                    #expect(report.file == file)
                    #expect(report.published?.to == feedURL)
                    #expect(report.published?.uploaded == true)
                    #expect(
                        report.published?.mirror == Notice(outcome: "done", server: mirror.url("/api"), reason: nil))
                    #expect(
                        report.published?.relay == Notice(outcome: "alreadyDone", server: relay.url("/"), reason: nil))
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
                await mirror.log.answer(
                    500, body: #"{"title": "Server error", "detail": "the index is being rebuilt", "status": 500}"#)
                let home = try TemporaryFolder()
                defer { home.remove() }
                try node.root.write(emptyFeed(nick: "bo"), to: "bo/social.org")
                let file = try home.write(emptyFeed(nick: "bo"), to: "social.org")
                var environment = [
                    "HOME": home.path, "ORGSOCIAL_FEED_URL": node.url("/bo/social.org").absoluteString,
                    "ORGSOCIAL_TOKEN": try node.issueToken(folder: "bo"), "ORGSOCIAL_MIRROR": mirror.url("/api"),
                ]
                let failing = await runCLI(
                    ["post", "--file", file, "--text", "Still lands", "--publish", "--verbose", "--json"],
                    environment: environment)
                #expect(failing.status == 0, "\(failing.error)")
                #expect(failing.error.contains("could not be told"))
                #expect(failing.error.contains("HTTP 500"))
                let report = try JSONDecoder().decode(Report.self, from: Data(failing.output.utf8))
                #expect(report.published?.mirror.outcome == "failed")
                #expect(report.published?.mirror.reason?.hasSuffix("HTTP 500: the index is being rebuilt") == true)
                #expect(report.published?.relay == Notice(outcome: "notConfigured", server: nil, reason: nil))
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

    @Test func jsonSaysWhatEachWritingCommandDidWithEveryKeyPresent() async throws {
        try await withNode { node in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let feedURL = node.url("/cy/social.org").absoluteString
            try node.root.write(emptyFeed(nick: "cy"), to: "cy/social.org")
            let file = try home.write(emptyFeed(nick: "cy"), to: "social.org")
            let environment = [
                "HOME": home.path, "ORGSOCIAL_FEED_URL": feedURL, "ORGSOCIAL_TOKEN": try node.issueToken(folder: "cy"),
                "ORGSOCIAL_MIRROR": "none",
            ]
            let local = await runCLI(
                ["post", "--file", file, "--text", "Here only", "--json"], environment: environment)
            #expect(local.status == 0, "\(local.error)")
            #expect(local.output.contains("\"published\" : null"))
            let id = try #require(Feed(parsing: try String(contentsOfFile: file, encoding: .utf8)).posts.first?.id)
            #expect(try JSONDecoder().decode(Report.self, from: Data(local.output.utf8)).address == "\(feedURL)#\(id)")
            let published = await runCLI(["publish", "--file", file, "--json"], environment: environment)
            #expect(published.status == 0, "\(published.error)")
            let publishReport = try JSONDecoder().decode(Report.self, from: Data(published.output.utf8))
            #expect(publishReport.address == feedURL)
            #expect(publishReport.published?.uploaded == true)
            #expect(publishReport.published?.mirror == Notice(outcome: "notConfigured", server: nil, reason: nil))
            let synced = await runCLI(["sync", "--file", file, "--json"], environment: environment)
            #expect(synced.status == 0, "\(synced.error)")
            #expect(try JSONDecoder().decode(Report.self, from: Data(synced.output.utf8)).published?.uploaded == false)
            let unfollowed = await runCLI(
                ["follow", "--file", file, "https://example.org/social.org", "--publish", "--json"],
                environment: environment)
            #expect(unfollowed.status == 0, "\(unfollowed.error)")
            let followReport = try JSONDecoder().decode(Report.self, from: Data(unfollowed.output.utf8))
            #expect(followReport.address == "https://example.org/social.org")
            #expect(followReport.published?.to == feedURL)
            let left = await runCLI(
                ["unfollow", "--file", file, "https://example.org/social.org", "--json"], environment: environment)
            #expect(left.status == 0, "\(left.error)")
            #expect(left.output.contains("\"address\" : null"))
            #expect(try JSONDecoder().decode(Report.self, from: Data(left.output.utf8)).file == file)
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

/// `--json` of a writing command, as a script reads it.
private struct Report: Decodable {
    var address: String?
    var file: String
    var published: Publication?

    struct Publication: Decodable {
        var to: String
        var uploaded: Bool
        var earlierChanges: Bool
        var mirror: Notice
        var relay: Notice
    }
}

/// What a server was told, in `--json`.
private struct Notice: Decodable, Equatable {
    var outcome: String
    var server: String?
    var reason: String?
}
