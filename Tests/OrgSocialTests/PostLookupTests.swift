import Foundation
import OrgSocial
import Testing

/// Reading one post's properties, poll options and instant: what the model's accessors give for names
/// in any case, repeated and empty entries, options written loosely, and dates at the ends of the calendar.
struct PostLookupTests {
    /// The only post of a feed whose drawer holds `drawer` and whose body is `body`.
    static func post(_ drawer: String, body: String = "") -> Post {
        Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n\(drawer)\n:END:\n\n\(body)\n").posts[0]
    }

    @Test func propertiesAreFoundWhateverTheCaseOfTheirNames() {
        let post = Self.post(
            ":lang: es\n:Tags: a b\n:mOOd: 👍\n:Migration: https://o.example/s.org https://n.example/s.org")

        #expect(post.language == "es")
        #expect(post.value(of: "LANG") == "es" && post.value(of: "lang") == "es" && post.value(of: "Lang") == "es")
        #expect(post.tags == ["a", "b"])
        #expect(post.mood == "👍")
        #expect(post.migration?.newURL == "https://n.example/s.org")
        #expect(post.kind == .migration)
    }

    @Test func theFirstNonEmptyValueWins() {
        let post = Self.post(":LANG:\n:LANG:   \n:LANG: en\n:LANG: fr\n:X-LANG: de")

        #expect(post.language == "en")
        #expect(post.value(of: "X-LANG") == "de")
    }

    @Test func emptyEntriesAreNoValue() {
        let post = Self.post(":REPLY_TO:\n:MOOD: \n:POLL_END:")

        #expect(post.replyTo == nil && post.mood == nil && post.pollEnd == nil)
        #expect(post.kind == .post)
    }

    /// Names sharing a first letter, a prefix or a length with a known one are other properties.
    @Test func namesLikeKnownOnesAreNotMistakenForThem() {
        let post = Self.post(
            ":LANGUAGE: en\n:TAG: a\n:MOO: x\n:POLL: y\n:POLL_ENDS: z\n:REPLY-TO: w\n:BOTS: v\n:MIGRATIONS: u\n:POLL\u{7F}END: t"
        )

        #expect(post.language == nil && post.tags.isEmpty && post.mood == nil && post.pollEnd == nil)
        #expect(post.replyTo == nil && post.bot == nil && post.migration == nil)
        #expect(post.kind == .post)
        #expect(post.value(of: "LANGUAGE") == "en" && post.value(of: "poll_ends") == "z")
        #expect(post.properties.count == 9)
    }

    @Test func everyKnownPropertyIsRead() {
        let post = Self.post(
            """
            :LANG: en
            :TAGS: #x y
            :CLIENT: c
            :MOOD: m
            :REPLY_TO: https://a.example/s.org#1
            :INCLUDE: https://b.example/s.org#2
            :POLL_END: 2025-05-02T12:00:00+0100
            :POLL_OPTION: o
            :GROUP: G https://relay.example
            :VISIBILITY: mention
            :MIGRATION: https://o.example/s.org https://n.example/s.org
            :BOT: chess e4
            """)

        #expect(post.language == "en" && post.tags == ["x", "y"] && post.client == "c" && post.mood == "m")
        #expect(post.replyTo?.postID == "1" && post.include?.postID == "2")
        #expect(post.pollEnd?.raw == "2025-05-02T12:00:00+0100" && post.pollOption == "o")
        #expect(post.group?.name == "G" && post.visibility.isMentionOnly)
        #expect(post.migration?.oldURL == "https://o.example/s.org" && post.bot?.type == "chess")
    }

    /// A leading `#` is dropped when it is a character of its own; `#` and a combining mark are one character.
    @Test func tagsDropALeadingHashCharacter() {
        let post = Self.post(":TAGS:  #a\t#\u{301}b # ## c #é é\u{301} ")

        #expect(post.tags == ["a", "#\u{301}b", "#", "c", "é", "é\u{301}"])
        #expect(Self.post(":TAGS: #").tags.isEmpty)
    }

    /// A reference's text is its parsed form's: split at the last `#` character, both sides non-empty.
    @Test(arguments: [
        "https://a.example/s.org#2025-01-01T00:00:00+0000", "  https://a.example/s.org#x\t", "https://a#b#c",
        "#x", "https://a.example/s.org#", "no-hash", "https://é.example/s.org#id", "https://a.example/s.org#\u{301}",
        "https://a.example/s.org#\u{301}x", "https://é.example/s.org#",
    ])
    func referenceTextIsTheParsedReferencesText(_ value: String) {
        let post = Self.post(":REPLY_TO: \(value)\n:INCLUDE: \(value)")

        #expect(post.referenceText(.replyTo) == post.replyTo?.description)
        #expect(post.referenceText(.include) == post.include?.description)
        #expect(PostReference.text(parsing: value) == PostReference(parsing: value)?.description)
    }

    @Test func pollOptionsAreReadFromLooselyWrittenLines() {
        let body =
            "Pick:\n- [ ] A\n  -[] B  \n\t- [\t] C\t\n-  [ ]   \n- [x] no\n- not\n+ [ ] no\n-[ ]D\n - [ ] É é\n- [ ]"

        let post = Self.post(":POLL_END: 2025-05-02T12:00:00+0100", body: body)

        #expect(post.pollOptions == ["A", "B", "C", "D", "É é"])
        #expect(post.bodyAndPollOptions.pollOptions == post.pollOptions)
        #expect(post.kind == .poll)
    }

    @Test func aPollWhoseLinesAreNoOptionsHasNone() {
        let feed = Feed(
            parsing: "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n"
                + ":POLL_END: 2025-05-02T12:00:00+0100\n:END:\n\n- [ ]\n-\n[ ] x\n")

        #expect(feed.posts[0].pollOptions.isEmpty)
        #expect(FeedValidator().validate(feed).map(\.code) == [.pollWithoutOptions])
    }

    @Test(arguments: [
        ("2025-05-01T12:00:00+0100", "2025-05-01T11:00:00Z"),
        ("2025-12-31T23:30:00-0100", "2026-01-01T00:30:00Z"),
        ("1970-01-01T00:00:00+0000", "1970-01-01T00:00:00Z"),
        ("0000-01-01T00:30:00+0100", "-0001-12-31T23:30:00Z"),
        ("9999-12-31T23:00:00-0200", "10000-01-01T01:00:00Z"),
    ])
    func instantsAreWrittenInUTC(id: String, instant: String) {
        let post = Feed(parsing: "* Posts\n** \(id)\nx\n").posts[0]

        #expect(post.instantText == instant)
    }

    @Test func aPostIsFoundByItsIDWhereverTheIDIsWrittenAndOnlyThere() {
        let text = """
            #+TITLE: T\r
            #+NICK: t\r
            #+PINNED: 2026-01-01T10:00:00+0000\r
            \r
            * Posts\r
            ** 2026-01-01T09:00:00+0000\r
            :PROPERTIES:\r
            :REPLY_TO: https://t.example/social.org#2026-01-01T10:00:00+0000\r
            :END:\r
            \r
            Mentions 2026-01-01T10:00:00+0000 in its text.\r
            \r
            ** A title\r
            :PROPERTIES:\r
            :ID: 2026-01-01T10:00:00+0000\r
            :END:\r
            \r
            The post with that ID.\r
            \r
            ** 2026-01-01T11:00:00+0000\r
            Last.\r

            """
        let feed = Feed(parsing: text)
        #expect(feed.post(withID: "2026-01-01T10:00:00+0000")?.body == "The post with that ID.")
        #expect(feed.post(withID: "2026-01-01T11:00:00+0000")?.body == "Last.")
        #expect(feed.post(withID: "2026-01-01T09:00:00+0000")?.body.hasPrefix("Mentions") == true)
        #expect(feed.post(withID: "2026-01-01T12:00:00+0000") == nil)
        #expect(feed.post(withID: "") == nil)
        #expect(feed.positionsOfPosts(withID: "2026-01-01T10:00:00+0000") == [1])
        // The same answers as reading every post.
        for id in ["2026-01-01T09:00:00+0000", "2026-01-01T10:00:00+0000", "2026-01-01T11:00:00+0000", "x"] {
            #expect(feed.positionsOfPosts(withID: id) == feed.posts.indices.filter { feed.posts[$0].id == id })
        }
    }
}
