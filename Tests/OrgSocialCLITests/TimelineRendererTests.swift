import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

@Suite("TimelineRenderer")
struct TimelineRendererTests {
    let entry = TimelinePost(
        post: singlePost("2026-01-02T01:04:05+0000", [:], "One two three four five six seven eight nine ten"),
        author: TimelineAuthor(nick: "ana", title: nil, avatar: nil, feedURL: "http://a.example/social.org"))

    @Test func relativeTimesReadNaturally() {
        let now = timelineNow
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(-30), to: now) == "just now")
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(-300), to: now) == "5m ago")
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(-7200), to: now) == "2h ago")
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(-3 * 86_400), to: now) == "3d ago")
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(7200), to: now) == "in 2h")
        #expect(TimelineRenderer.relativeTime(from: now.addingTimeInterval(-90 * 86_400), to: now) == "2025-10-04")
    }

    @Test func wrapsAtSpacesKeepingLineBreaks() {
        #expect(TimelineRenderer.wrap("aaa bbb ccc\n\nddd", width: 7) == ["aaa bbb", "ccc", "", "ddd"])
        #expect(TimelineRenderer.wrap("\n\nx\n\n", width: 10) == ["x"])
    }

    @Test func colorsOnlyWhenAsked() throws {
        let entry = try #require(self.entry)
        let plain = TimelineRenderer(usesColor: false, now: timelineNow, width: 30).render(entry).rendered
        #expect(
            plain == """
                ana · 2h ago
                  One two three four five six
                  seven eight nine ten
                  http://a.example/social.org#2026-01-02T01:04:05+0000


                """)
        let colored = TimelineRenderer(usesColor: true, now: timelineNow).render(entry).rendered
        #expect(colored.contains("\u{1B}[1;36mana\u{1B}[0m"))
    }

    @Test func aMigrationPostSaysWhereTheFeedMoved() throws {
        let author = TimelineAuthor(nick: "ana", title: nil, avatar: nil, feedURL: "http://a.example/social.org")
        let moved = try #require(
            TimelinePost(
                post: singlePost(
                    "2026-01-02T01:04:05+0000",
                    ["MIGRATION": "http://a.example/social.org http://b.example/social.org"],
                    ""),
                author: author))
        let renderer = TimelineRenderer(usesColor: false, now: timelineNow)

        #expect(
            renderer.render(moved).rendered == """
                ana · 2h ago  → moved to http://b.example/social.org
                  http://a.example/social.org#2026-01-02T01:04:05+0000


                """)
        let broken = try #require(
            TimelinePost(
                post: singlePost("2026-01-02T01:04:05+0000", ["MIGRATION": "http://b.example/social.org"], ""),
                author: author))
        #expect(renderer.render(broken).rendered.hasPrefix("ana · 2h ago  → moved (its :MIGRATION: is not two URLs)\n"))
        #expect(
            PostJSON(moved).migration
                == Migration(oldURL: "http://a.example/social.org", newURL: "http://b.example/social.org"))
    }

    @Test func colorNeedsATerminalAndNoNOCOLOR() {
        var context = CommandContext(writeStandardOutput: { _ in }, writeStandardError: { _ in })
        #expect(!TimelineRenderer.usesColor(in: context))
        context.isStandardOutputTerminal = true
        #expect(TimelineRenderer.usesColor(in: context))
        context.environment["NO_COLOR"] = "1"
        #expect(!TimelineRenderer.usesColor(in: context))
    }
}
