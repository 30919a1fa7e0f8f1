import Foundation
import Synchronization
import TestSupport
import Testing

@testable import OrgSocialCLI

/// A hostile feed cannot drive the terminal: every C0 and C1 control, DEL, and OSC 52, OSC 0, CSI and DCS
/// sequences in its nick, title, bodies and poll options (and in a relay's answers) reach standard output
/// of every reading command only as visible symbols, while `--json` and `show --org` stay exact.
@Suite("Terminal safety")
struct TerminalSafetyTests {
    /// Every C0 control but the line break, DEL and every C1 control, each once.
    static let controls: String = {
        var text = String.UnicodeScalarView()
        for value in UInt8(0x00)...0x1F where value != 0x0A { text.append(Unicode.Scalar(value)) }
        text.append(Unicode.Scalar(UInt8(0x7F)))
        for value in UInt8(0x80)...0x9F { text.append(Unicode.Scalar(value)) }
        return String(text)
    }()

    /// A clipboard write (OSC 52), a window title (OSC 0), a screen clear (CSI), a DCS request and a C1 CSI.
    static let sequences = "\u{1B}]52;c;SGVsbG8=\u{07}\u{1B}]0;pwned\u{1B}\\\u{1B}[2J\u{1B}P1$qm\u{1B}\\\u{9B}31m"

    /// The hostile nick: the sequences between two halves of a name.
    static let nick = "ev\(sequences)il"

    /// The bytes of `output` that a terminal would act on: C0 controls but line break and tab, DEL, and C1
    /// controls (`C2 80`…`C2 9F`).
    static func controlBytes(in output: [UInt8]) -> [UInt8] {
        var found: [UInt8] = []
        for (index, byte) in output.enumerated() {
            if byte < 0x20, byte != 0x0A, byte != 0x09 { found.append(byte) }
            if byte == 0x7F { found.append(byte) }
            if byte == 0xC2, index + 1 < output.count, (0x80...0x9F).contains(output[index + 1]) {
                found.append(output[index + 1])
            }
        }
        return found
    }

    /// Expects no control byte in `result`'s standard output and standard error, and `visible` in its output.
    static func expectSafe(
        _ result: CLIResult, showing visible: [String], _ command: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 0, "\(command): \(result.error)", sourceLocation: sourceLocation)
        #expect(controlBytes(in: result.outputBytes) == [], "\(command) stdout", sourceLocation: sourceLocation)
        #expect(controlBytes(in: result.errorBytes) == [], "\(command) stderr", sourceLocation: sourceLocation)
        for text in visible {
            #expect(result.output.contains(text), "\(command) shows \(text)", sourceLocation: sourceLocation)
        }
    }

    /// How the sequences look once made visible.
    static let visibleSequences = "␛]52;c;SGVsbG8=␇␛]0;pwned␛\\␛[2J␛P1$qm␛\\�31m"

    /// Serves `me` (a root post and a poll, following `evil`) and `evil`, whose nick, title, reply, mention,
    /// vote and poll carry every control; `body` gets `me`'s and `evil`'s URLs, `evil`'s text and the environment.
    func withHostileFeeds(_ body: (String, String, String, [String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try await withFarm { farm in
            let me = farm.url("/me.org")
            let evil = farm.url("/evil.org")
            await farm.state.set(
                "/me.org",
                feedText(
                    nick: "me", follows: [evil],
                    posts: [
                        ("2026-01-01T00:00:00+0000", [:], "Root post."),
                        (
                            "2026-01-01T01:00:00+0000", ["POLL_END": "2026-01-03T00:00:00+0000"],
                            "Tea?\n- [ ] Tea\n- [ ] No"
                        ),
                    ]))
            let hostile =
                "#+TITLE: The \(Self.sequences) journal\n#+NICK: \(Self.nick)\n\n* Posts\n"
                + "** 2026-01-01T02:00:00+0000\n:PROPERTIES:\n:REPLY_TO: \(me)#2026-01-01T00:00:00+0000\n:END:\n\n"
                + "Reply \(Self.controls) and \(Self.sequences) end.\n\tIndented line.\n\n"
                + "** 2026-01-01T03:00:00+0000\n:PROPERTIES:\n:END:\n\n"
                + "Hi [[org-social:\(me)][me]] \(Self.sequences) mention.\n\n"
                + "** 2026-01-01T04:00:00+0000\n:PROPERTIES:\n:REPLY_TO: \(me)#2026-01-01T01:00:00+0000\n"
                + ":POLL_OPTION: Tea\n:END:\n\n"
                + "** 2026-01-01T05:00:00+0000\n:PROPERTIES:\n:POLL_END: 2026-01-09T00:00:00+0000\n:END:\n\n"
                + "Poll \(Self.sequences)?\n- [ ] Yes \(Self.sequences)\n- [ ] No\n\n"
            await farm.state.set("/evil.org", hostile)
            let environment = ["XDG_CACHE_HOME": folder.path("cache"), "HOME": folder.url.path, "NO_COLOR": "1"]
            try await body(me, evil, hostile, environment)
        }
    }

    @Test func readingCommandsShowEveryControlOfAHostileFeedAsAVisibleSymbol() async throws {
        try await withHostileFeeds { me, evil, _, environment in
            let reply = "\(evil)#2026-01-01T02:00:00+0000"
            let runs: [(String, [String], [String])] = [
                ("timeline", ["timeline", "--feed-url", me, "--no-relay"], [Self.visibleSequences, "end."]),
                ("thread", ["thread", "\(me)#2026-01-01T00:00:00+0000", "--feed-url", me, "--no-relay"], ["end."]),
                ("notifications", ["notifications", "--feed-url", me, "--no-relay"], ["mention.", "replied"]),
                ("fetch", ["fetch", evil], ["The \(Self.visibleSequences) journal"]),
                ("show", ["show", evil], ["ev\(Self.visibleSequences)il"]),
                (
                    "poll-results",
                    ["poll-results", "\(evil)#2026-01-01T05:00:00+0000", "--feed-url", me, "--no-relay"],
                    ["Yes \(Self.visibleSequences)"]
                ),
            ]
            for (name, arguments, visible) in runs {
                let result = await runCLIOverCurl(arguments, environment: environment)
                Self.expectSafe(result, showing: visible, name)
            }
            let timeline = await runCLIOverCurl(["timeline", "--feed-url", me, "--no-relay"], environment: environment)
            // The nick shows on its line, the tab of the body is kept, every control is a symbol.
            #expect(timeline.output.contains("ev\(Self.visibleSequences)il · "))
            #expect(timeline.output.contains("  \tIndented line."))
            // A lone CR ends a line in Org (the parser reads it as a line break), so the body breaks there.
            #expect(timeline.output.contains("Reply ␀␁␂␃␄␅␆␇␈\t␋␌\n"))
            #expect(timeline.output.contains("␎␏␐␑␒␓␔␕␖␗␘␙␚␛␜␝␞␟␡" + String(repeating: "\u{FFFD}", count: 32) + " and"))
            #expect(timeline.output.contains(reply))
        }
    }

    @Test func relayAnswersAreShownAsSafely() async throws {
        try await withHostileFeeds { me, evil, _, environment in
            let reply = "\(evil)#2026-01-01T02:00:00+0000"
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                // The relay's own text (an emoji, a group name) is as hostile as the feeds, JSON-escaped.
                let escaped = "\\u001b]52;c;SGVsbG8=\\u0007\\u009b2J\\n[forged] line"
                await relay.state.success(
                    "/search/", data: "[\"\(reply)\"]",
                    meta: "{\"total\":1,\"page\":1,\"perPage\":10,\"hasNext\":false,\"hasPrevious\":false}")
                await relay.state.success("/groups/", data: "[\"Tea\(escaped)\"]")
                await relay.state.success(
                    "/groups/tea/", data: "[{\"post\":\"\(reply)\"}]",
                    meta: "{\"group\":\"Tea\(escaped)\",\"members\":[\"\(evil)\"]}")
                await relay.state.success(
                    "/notifications/",
                    data: "[{\"type\":\"reaction\",\"post\":\"\(reply)\",\"parent\":\"\(me)#2026-01-01T00:00:00+0000\","
                        + "\"emoji\":\"\(escaped)\"}]",
                    meta: "{\"total\":1,\"by_type\":{\"reactions\":1}}")
                let runs: [(String, [String], [String])] = [
                    ("search", ["search", "end", "--relay", relay.baseURL], ["end."]),
                    ("groups", ["groups", "--relay", relay.baseURL], ["Tea␛]52;c;SGVsbG8=␇�2J"]),
                    ("groups tea", ["groups", "tea", "--relay", relay.baseURL], ["end."]),
                    (
                        "notifications", ["notifications", "--feed-url", me, "--relay", relay.baseURL],
                        ["␛]52;c;SGVsbG8=␇�2J [forged] line", "end."]
                    ),
                ]
                for (name, arguments, visible) in runs {
                    let result = await runCLIOverCurl(arguments, environment: environment)
                    Self.expectSafe(result, showing: visible, name)
                }
                // A line break in a one-line field does not start a line of its own.
                let notifications = await runCLIOverCurl(
                    ["notifications", "--feed-url", me, "--relay", relay.baseURL], environment: environment)
                #expect(!notifications.output.contains("\n[forged]"))
            }
        }
    }

    @Test func colorsAreTheOnlyEscapeSequencesOnATerminal() async throws {
        try await withHostileFeeds { me, _, _, environment in
            var colored = environment
            colored["NO_COLOR"] = nil
            let result = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--no-relay", "--no-pager"], environment: colored, isTerminal: true)
            #expect(result.status == 0)
            #expect(result.output.contains("\u{1B}[1;36mev\(Self.visibleSequences)il\u{1B}[0m"))
            let withoutStyles = result.output.replacingOccurrences(
                of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
            #expect(Self.controlBytes(in: Array(withoutStyles.utf8)) == [])
        }
    }

    @Test func jsonAndOrgOutputStayExactWithoutARawControl() async throws {
        try await withHostileFeeds { me, evil, served, environment in
            let json = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--no-relay", "--json"], environment: environment)
            #expect(json.status == 0)
            #expect(Self.controlBytes(in: json.outputBytes) == [])
            struct Timeline: Decodable {
                struct Post: Decodable {
                    var feedURL: String
                    var nick: String?
                    var body: String
                }
                var posts: [Post]
            }
            let posts = try JSONDecoder().decode(Timeline.self, from: Data(json.outputBytes)).posts
            // The body as parsed: a lone CR ends a line in Org.
            let body = Self.controls.replacingOccurrences(of: "\r", with: "\n")
            #expect(posts.map(\.body).contains("Reply \(body) and \(Self.sequences) end.\n\tIndented line."))
            #expect(posts.first { $0.feedURL == evil }?.nick == Self.nick)

            let show = await runCLIOverCurl(["show", evil, "--json"], environment: environment)
            #expect(Self.controlBytes(in: show.outputBytes) == [])
            #expect(show.output.contains("\\u009b31m"))

            let org = await runCLIOverCurl(["show", evil, "--org"], environment: environment)
            #expect(org.output == served)
            let onTerminal = await runCLIOverCurl(["show", evil, "--org"], environment: environment, isTerminal: true)
            #expect(Self.controlBytes(in: onTerminal.outputBytes) == [])
            #expect(onTerminal.output.contains("#+NICK: ev\(Self.visibleSequences)il"))
        }
    }

    @Test func followModeNotesShowControlsAndOnlyTheProgressLineErasesALine() {
        let written = Mutex<[UInt8]>([])
        let writer = ProgressWriter { bytes in written.withLock { $0 += bytes } }
        writer.write("note: cannot read https://a.example/s.org (\(Self.sequences)); trying again.\n")
        #expect(Self.controlBytes(in: written.withLock { $0 }) == [])
        #expect(String(decoding: written.withLock { $0 }, as: UTF8.self).contains(Self.visibleSequences))
        written.withLock { $0 = [] }
        writer.writeOverLine("Reading feeds: 1/2\u{1B}[2J")
        #expect(String(decoding: written.withLock { $0 }, as: UTF8.self) == "\r\u{1B}[KReading feeds: 1/2␛[2J")
    }
}
