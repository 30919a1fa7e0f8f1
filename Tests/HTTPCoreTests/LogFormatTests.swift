import Foundation
import HTTPCore
import Testing

/// `LogFormat`: text lines pass through; JSON lines carry the time, the message and each `key=value`
/// pair as a member, in order, and parse back with `JSONSerialization`.
@Suite struct LogFormatTests {
    static let time = Date(timeIntervalSince1970: 1_796_419_545.25)

    /// The members of a JSON line, in the order written.
    static func members(of line: String) throws -> [(String, String)] {
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String], "not an object: \(line)")
        // JSONSerialization forgets the order: sort the keys by where they appear in the text.
        func offset(_ key: String) -> Int {
            line.range(of: "\"\(key)\":").map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? .max
        }
        return object.keys.sorted { offset($0) < offset($1) }.map { ($0, object[$0] ?? "") }
    }

    @Test func textLinesAreTheMessageUnchanged() {
        let message = "relay feed refused url=https://a.example/social.org reason=not an Org file"
        #expect(LogFormat.text.line(for: message, at: Self.time) == message)
    }

    @Test func jsonLineHasTimeMessageAndPairsInOrder() throws {
        let line = LogFormat.json.line(
            for: "relay feed refused url=https://a.example/social.org?x=1 reason=not an Org file", at: Self.time)
        #expect(
            line == #"{"time":"2026-12-04T21:25:45.250Z","message":"relay feed refused","#
                + #""url":"https://a.example/social.org?x=1","reason":"not an Org file"}"#)
        let members = try Self.members(of: line)
        #expect(members.map(\.0) == ["time", "message", "url", "reason"])
    }

    @Test func quotedValuesLoseTheirQuotesAndEscapes() throws {
        let line = LogFormat.json.line(
            for: #"relay-http error=rss reason="the \"feeds\" table is locked""#, at: Self.time)
        let members = try Self.members(of: line)
        #expect(members.map(\.0) == ["time", "message", "error", "reason"])
        #expect(members[1].1 == "relay-http")
        #expect(members[3].1 == #"the "feeds" table is locked"#)
    }

    @Test func quotesBackslashesAndControlCharactersAreEscaped() throws {
        let message = "Cannot write alice/social.org: \"disk\\full\"\ttab\u{01}"
        let line = LogFormat.json.line(for: message, at: Self.time)
        #expect(!line.contains("\n"))
        #expect(line.contains(#""message":"Cannot write alice/social.org: \"disk\\full\"\ttab\u0001""#))
        #expect(try Self.members(of: line)[1].1 == message)
    }

    @Test func nonASCIIIsKeptAsUTF8() throws {
        let line = LogFormat.json.line(for: "Cannot sign up 'zoë' nick=zoë reason=名前 😀", at: Self.time)
        #expect(line.contains(#""nick":"zoë","reason":"名前 😀""#))
        let members = try Self.members(of: line)
        #expect(members[1].1 == "Cannot sign up 'zoë'")
        #expect(members[3].1 == "名前 😀")
    }

    @Test func linesWithoutPairsAreAllMessage() throws {
        let line = LogFormat.json.line(for: "serve: listening on http://127.0.0.1:8080 (root /srv)", at: Self.time)
        #expect(
            try Self.members(of: line).map(\.1) == [
                "2026-12-04T21:25:45.250Z", "serve: listening on http://127.0.0.1:8080 (root /srv)",
            ])
    }

    @Test func pairsNamedLikeTheFixedMembersDoNotReplaceThem() throws {
        let line = LogFormat.json.line(for: "relay peer said time=yesterday message=hi", at: Self.time)
        let members = try Self.members(of: line)
        #expect(members.map(\.0) == ["time", "message"])
        #expect(members[1].1 == "relay peer said")
    }

    @Test func messageSplitsAtWordsThatStartWithAKey() {
        let parsed = LogMessage(parsing: "relay feed dropped url=https://b.example/a=b reason=no success for 3 days =x")
        #expect(parsed.text == "relay feed dropped")
        #expect(
            parsed.fields == [
                LogMessage.Field("url", "https://b.example/a=b"),
                LogMessage.Field("reason", "no success for 3 days =x"),
            ])
    }
}
