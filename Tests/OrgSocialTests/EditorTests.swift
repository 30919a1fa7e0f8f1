import Foundation
import OrgSocial
import Testing

/// The editing functions of `Feed`: each edit changes only the bytes it must. Every test compares the
/// bytes before and after the edited region with the original, byte for byte.
struct EditorTests {
    static let base = """
        #+TITLE: Editor test
        #+NICK: ed
        #+FOLLOW: https://a.example/social.org
        #+FOLLOW: Best friend (work) https://b.example/social.org
        #+GROUP: Org Mode https://relay.example.org

        * Posts
        ** 2025-05-01T12:00:00+0100
        :PROPERTIES:
        :LANG: en
        :TAGS: one two
        :CLIENT: org-social.el
        :MOOD:
        :END:

        First body.

        ** 2025-05-02T12:00:00+0100
        :PROPERTIES:
        :CLIENT: org-social.el
        :END:

        Second body
        on two lines.

        ** 2025-05-03T12:00:00+0100
        :PROPERTIES:
        :END:

        Third body.

        """

    static let first = "2025-05-01T12:00:00+0100"
    static let second = "2025-05-02T12:00:00+0100"
    static let third = "2025-05-03T12:00:00+0100"
    static let date = instant("2025-06-01T10:00:00+0000")
    static let newID = "2025-06-01T10:00:00+0000"

    static func draft(_ text: String) -> PostDraft {
        do { return try PostDraft.post(text) } catch { fatalError("bad test draft: \(error)") }
    }

    static func rendered(_ body: String, id: String = newID) -> String {
        "** \(id)\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n\n\(body)\n"
    }

    // MARK: - Append

    @Test func appendAddsTheCanonicalPostAfterTheLastPost() {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        let post = feed.append(Self.draft("Fourth"), at: Self.date, timeZone: utcZone)

        expectInsertion(old: old, new: feed.bytes, at: old.count, of: utf8("\n" + Self.rendered("Fourth")))
        #expect(post.id == Self.newID)
        #expect(post.body == "Fourth")
        #expect(post.client == "orgsocial")
        #expect(post.index == 3)
        #expect(feed.posts.map(\.id) == [Self.first, Self.second, Self.third, Self.newID])
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func appendGoesBeforeTrailingBlankLinesAndOtherSections() {
        let old = utf8(Self.base + "\n\n* Notes\nkeep me\n")
        var feed = Feed(bytes: old)

        feed.append(Self.draft("Fourth"), at: Self.date, timeZone: utcZone)

        let offset = uniqueRange(of: "Third body.\n", in: old).upperBound
        expectInsertion(old: old, new: feed.bytes, at: offset, of: utf8("\n" + Self.rendered("Fourth")))
        #expect(feed.posts.count == 4)
        #expect(feed.otherSections.map(\.title) == ["Notes"])
    }

    @Test func appendToAFeedWithNoPostsGoesRightUnderThePostsHeading() {
        let old = utf8("#+TITLE: t\n* Posts\n* Notes\nx\n")
        var feed = Feed(bytes: old)

        feed.append(Self.draft("Hello"), at: Self.date, timeZone: utcZone)

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "* Posts\n", in: old).upperBound,
            of: utf8(Self.rendered("Hello")))
        #expect(feed.posts.map(\.body) == ["Hello"])
    }

    @Test(arguments: [
        ("#+TITLE: t\n#+NICK: n\n", "\n* Posts\n"),
        ("#+TITLE: t\n\n", "* Posts\n"),
        ("#+TITLE: t", "\n\n* Posts\n"),
        ("", "* Posts\n"),
        ("\n\n", "* Posts\n"),
    ])
    func appendCreatesThePostsSectionAtTheEndWhenMissing(_ text: String, _ expectedPrefix: String) {
        let old = utf8(text)
        var feed = Feed(bytes: old)

        feed.append(Self.draft("Hello"), at: Self.date, timeZone: utcZone)

        expectInsertion(old: old, new: feed.bytes, at: old.count, of: utf8(expectedPrefix + Self.rendered("Hello")))
        #expect(feed.hasPostsSection)
        #expect(feed.posts.map(\.body) == ["Hello"])
    }

    @Test func appendToAFileWithoutFinalNewlineStartsOnANewLine() {
        let old = utf8(String(Self.base.dropLast()))
        var feed = Feed(bytes: old)

        feed.append(Self.draft("Fourth"), at: Self.date, timeZone: utcZone)

        expectInsertion(old: old, new: feed.bytes, at: old.count, of: utf8("\n\n" + Self.rendered("Fourth")))
        #expect(feed.posts.map(\.body).last == "Fourth")
        #expect(feed.posts[2].body == "Third body.")
    }

    @Test func appendToACRLFFileWritesCRLF() {
        let old = utf8(Self.base.replacingOccurrences(of: "\n", with: "\r\n"))
        var feed = Feed(bytes: old)

        feed.append(Self.draft("Fourth\nline"), at: Self.date, timeZone: utcZone)

        let inserted = ("\n" + Self.rendered("Fourth\nline")).replacingOccurrences(of: "\n", with: "\r\n")
        expectInsertion(old: old, new: feed.bytes, at: old.count, of: utf8(inserted))
        #expect(feed.lineEnding == .crlf)
        #expect(feed.posts.last?.body == "Fourth\nline")
    }

    @Test func appendToACRFileWritesCR() {
        let old = utf8("* Posts\r** 2025-05-01T12:00:00+0100\r\rx\r")
        var feed = Feed(bytes: old)

        feed.append(Self.draft("y"), at: Self.date, timeZone: utcZone)

        expectInsertion(
            old: old, new: feed.bytes, at: old.count,
            of: utf8(("\n" + Self.rendered("y")).replacingOccurrences(of: "\n", with: "\r")))
        #expect(feed.posts.map(\.body) == ["x", "y"])
    }

    @Test func appendBumpsTheSecondsUntilTheIDIsUnique() {
        var feed = Feed(parsing: "* Posts\n** 2025-06-01T10:00:00+0000\n\na\n\n** 2025-06-01T10:00:01+0000\n\nb\n")

        let id = feed.uniqueID(for: Self.date, timeZone: utcZone)
        let post = feed.append(Self.draft("c"), at: Self.date, timeZone: utcZone)

        #expect(id == "2025-06-01T10:00:02+0000")
        #expect(post.id == "2025-06-01T10:00:02+0000")
        #expect(
            feed.uniqueID(for: instant("2025-06-01T09:00:00+0000"), timeZone: utcZone) == "2025-06-01T09:00:00+0000")
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func appendComparesIDsAsStringsSoAnotherOffsetSpellingIsNoClash() {
        var feed = Feed(parsing: "* Posts\n** 2025-06-01T10:00:00+00:00\n\na\n")

        let post = feed.append(Self.draft("b"), at: Self.date, timeZone: utcZone)

        #expect(post.id == "2025-06-01T10:00:00+0000")
    }

    @Test func appendAfterAPostWithTrailingBlankLinesKeepsThemAfterTheNewPost() {
        let old = utf8("* Posts\n** 2025-05-01T12:00:00+0100\n\nx\n\n\n")
        var feed = Feed(bytes: old)

        feed.append(Self.draft("y"), at: Self.date, timeZone: utcZone)

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "\nx\n", in: old).upperBound,
            of: utf8("\n" + Self.rendered("y")))
    }

    // MARK: - updatePost

    @Test func updatePostChangesOnlyTheChangedPropertyValue() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.first) { $0.language = "fr" }

        let line = uniqueRange(of: ":LANG: en", in: old)
        expectSplice(old: old, new: feed.bytes, replacing: (line.lowerBound + 6)..<line.upperBound, with: utf8(" fr"))
        #expect(feed.posts[0].language == "fr")
    }

    @Test func updatePostFillsTheExistingEmptyLineOfAProperty() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.first) { $0.mood = "😊" }

        let line = uniqueRange(of: ":MOOD:\n", in: old)
        expectSplice(
            old: old, new: feed.bytes, replacing: (line.lowerBound + 6)..<(line.lowerBound + 6), with: utf8(" 😊"))
        #expect(feed.posts[0].mood == "😊")
    }

    @Test func updatePostAddsANewPropertyBeforeEnd() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.first) {
            $0.extraProperties.append(Property(name: "URL", value: "https://blog.example/p"))
        }

        let end = uniqueRange(of: ":MOOD:\n:END:", in: old).lowerBound + 7
        expectInsertion(old: old, new: feed.bytes, at: end, of: utf8(":URL: https://blog.example/p\n"))
        #expect(feed.posts[0].value(of: "URL") == "https://blog.example/p")
    }

    @Test func updatePostRemovesTheLineOfARemovedProperty() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.second) { $0.client = nil }

        let block = uniqueRange(of: "\(Self.second)\n:PROPERTIES:\n:CLIENT: org-social.el\n", in: old)
        let line = (block.upperBound - ":CLIENT: org-social.el\n".utf8.count)..<block.upperBound
        expectSplice(old: old, new: feed.bytes, replacing: line, with: [])
        #expect(feed.posts[1].client == nil)
        #expect(feed.posts[1].body == "Second body\non two lines.")
    }

    @Test func updatePostReplacesOnlyTheBody() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.second) { $0.body = "\n\nNew second body.\n\n" }

        expectSplice(
            old: old, new: feed.bytes, replacing: uniqueRange(of: "Second body\non two lines.", in: old),
            with: utf8("New second body."))
        #expect(feed.posts[1].body == "New second body.")
        #expect(feed.posts[1].id == Self.second)
    }

    @Test func updatePostChangesPropertiesAndBodyInOneEdit() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.third) {
            $0.language = "es"
            $0.body = "Hola."
        }

        #expect(
            feed.text
                == Self.base.replacingOccurrences(
                    of: "\(Self.third)\n:PROPERTIES:\n:END:\n\nThird body.",
                    with: "\(Self.third)\n:PROPERTIES:\n:LANG: es\n:END:\n\nHola."))
        #expect(feed.posts[2].language == "es")
    }

    @Test func updatePostWithoutChangesLeavesTheBytes() throws {
        var feed = Feed(parsing: Self.base)

        try feed.updatePost(id: Self.first) { _ in }
        try feed.updatePost(id: Self.first) { $0.tags = ["one", "two"] }

        #expect(feed.text == Self.base)
    }

    @Test func updatePostThrowsForAnUnknownID() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.postNotFound(id: "2025-05-01T12:00:00+01:00")) {
            try feed.updatePost(id: "2025-05-01T12:00:00+01:00") { $0.body = "x" }
        }
        #expect(feed.text == Self.base)
    }

    @Test func updatePostEscapesHeadingLinesInTheNewBody() throws {
        var feed = Feed(parsing: Self.base)

        try feed.updatePost(id: Self.third) { $0.body = "* not a section\n** not a post" }

        #expect(feed.posts.count == 3)
        #expect(feed.otherSections.isEmpty)
        #expect(feed.posts[2].body == " * not a section\n ** not a post")
    }

    @Test func updatePostAddsADrawerToAPostWithoutOne() throws {
        let old = utf8("* Posts\n** 2025-05-01T12:00:00+0100\nBody\n")
        var feed = Feed(bytes: old)

        try feed.setProperty("LANG", to: "en", inPost: "2025-05-01T12:00:00+0100")

        let headlineEnd = uniqueRange(of: "+0100\n", in: old).upperBound
        expectInsertion(old: old, new: feed.bytes, at: headlineEnd, of: utf8(":PROPERTIES:\n:LANG: en\n:END:\n"))
        #expect(feed.posts[0].language == "en")
        #expect(feed.posts[0].body == "Body")
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func updatePostAddsABodyToAPostWithoutOne() throws {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:MOOD: 👍\n:END:\n\n** 2025-05-02T12:00:00+0100\n\nnext\n"
        let old = utf8(text)
        var feed = Feed(bytes: old)

        try feed.replaceBody(ofPost: "2025-05-01T12:00:00+0100", with: "Now with text")

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: ":END:\n", in: old).upperBound, of: utf8("\nNow with text\n")
        )
        #expect(feed.posts.map(\.body) == ["Now with text", "next"])
    }

    @Test func updatePostClearingTheBodyRemovesItWithItsBlankLine() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.replaceBody(ofPost: Self.third, with: "")

        let thirdEnd = uniqueRange(of: "\(Self.third)\n:PROPERTIES:\n:END:\n", in: old).upperBound
        expectSplice(old: old, new: feed.bytes, replacing: thirdEnd..<old.count, with: [])
        #expect(feed.posts[2].hasEmptyBody)
    }

    @Test func updatePostOnACRLFFileWritesCRLF() throws {
        let old = utf8(Self.base.replacingOccurrences(of: "\n", with: "\r\n"))
        var feed = Feed(bytes: old)

        try feed.updatePost(id: Self.third) {
            $0.body = "one\ntwo"
            $0.mood = "🎉"
        }

        #expect(
            feed.text
                == Self.base.replacingOccurrences(
                    of: "\(Self.third)\n:PROPERTIES:\n:END:\n\nThird body.",
                    with: "\(Self.third)\n:PROPERTIES:\n:MOOD: 🎉\n:END:\n\none\ntwo"
                ).replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(feed.posts[2].body == "one\ntwo")
    }

    @Test func editingAPostWhoseDrawerIsAfterTheBodyChangesOnlyTheDrawerInPlace() throws {
        let text = """
            #+TITLE: t
            * Posts
            ** Función en elisp
            Body text.

            :PROPERTIES:
            :ID: 2025-11-02T16:26:32-0500
            :TAGS: #elisp #emacs
            :CLIENT: org-social.el
            :MOOD:
            :END:

            ** 2025-12-14T07:18:21-0500
            :PROPERTIES:
            :END:

            Other.

            """
        let old = utf8(text)
        var feed = Feed(bytes: old)

        try feed.setProperty("LANG", to: "es", inPost: "2025-11-02T16:26:32-0500")

        // The body, its blank line and the empty `:MOOD:` stay where they are: the property is added
        // before `:END:`, nothing else moves.
        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: ":MOOD:\n", in: old).upperBound, of: utf8(":LANG: es\n"))
        #expect(feed.posts[0].id == "2025-11-02T16:26:32-0500")
        #expect(feed.posts[0].headlineText == "Función en elisp")
        #expect(feed.posts[0].language == "es")
        #expect(feed.posts[0].body == "Body text.")
        #expect(feed.posts[1].body == "Other.")
        #expect(feed.diagnostics.map(\.code).contains(.misplacedDrawer))
    }

    @Test func editingAPostWhoseDrawerIsAfterABlankLineKeepsTheBlankLineAndTheTitle() throws {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100 My title\n\n:PROPERTIES:\n:LANG: en\n:END:\n\nBody\n"
        var feed = Feed(parsing: text)

        try feed.setProperty("LANG", to: "fr", inPost: "2025-05-01T12:00:00+0100")

        #expect(
            feed.text == "* Posts\n** 2025-05-01T12:00:00+0100 My title\n\n:PROPERTIES:\n:LANG: fr\n:END:\n\nBody\n")
        #expect(feed.posts[0].headlineText == "My title")
    }

    @Test func aNewBodyOfALegacyPostWithALateDrawerTakesTheOldBodysPlace() throws {
        let text = "* Posts\n**\nBody\n:PROPERTIES:\n:ID: 2025-05-01T12:00:00+0100\n:END:\n"
        var feed = Feed(parsing: text)

        try feed.replaceBody(ofPost: "2025-05-01T12:00:00+0100", with: "New")

        #expect(feed.text == "* Posts\n**\nNew\n:PROPERTIES:\n:ID: 2025-05-01T12:00:00+0100\n:END:\n")
        #expect(feed.posts[0].id == "2025-05-01T12:00:00+0100")
    }

    @Test func aNewBodyThatLooksLikeADrawerStaysBodyInAPostWithoutDrawer() throws {
        let old = utf8("* Posts\n** 2025-05-01T12:00:00+0100\nold\n\n** 2025-05-02T12:00:00+0100\n\nnext\n")
        var feed = Feed(bytes: old)

        try feed.replaceBody(ofPost: "2025-05-01T12:00:00+0100", with: ":PROPERTIES:\n:LANG: xx\n:END:\nshown")

        expectSplice(
            old: old, new: feed.bytes, replacing: uniqueRange(of: "** 2025-05-01T12:00:00+0100\nold\n", in: old),
            with: utf8("** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\n:PROPERTIES:\n:LANG: xx\n:END:\nshown\n"))
        #expect(feed.posts[0].body == ":PROPERTIES:\n:LANG: xx\n:END:\nshown")
        #expect(feed.posts[0].language == nil)
        #expect(feed.posts.map(\.body) == [":PROPERTIES:\n:LANG: xx\n:END:\nshown", "next"])
    }

    // MARK: - setProperty and replaceBody

    @Test func setPropertyAddsReplacesAndRemoves() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)
        let endOfThirdDrawer = uniqueRange(of: "\(Self.third)\n:PROPERTIES:\n", in: old).upperBound

        try feed.setProperty("lang", to: " de ", inPost: Self.third)
        expectInsertion(old: old, new: feed.bytes, at: endOfThirdDrawer, of: utf8(":LANG: de\n"))

        let added = feed.bytes
        try feed.setProperty("LANG", to: "it", inPost: Self.third)
        expectSplice(
            old: added, new: feed.bytes, replacing: (endOfThirdDrawer + 6)..<(endOfThirdDrawer + 9), with: utf8(" it"))

        try feed.setProperty("LANG", to: nil, inPost: Self.third)
        #expect(feed.bytes == old)

        try feed.setProperty("LANG", to: "", inPost: Self.first)
        #expect(feed.posts[0].language == nil)
        #expect(feed.text == Self.base.replacingOccurrences(of: ":LANG: en\n", with: ""))
    }

    @Test func setPropertyKeepsOtherPropertiesAndTheirSpelling() throws {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:lang: en\n:Custom_Thing: keep  me\n:END:\n\nx\n"
        var feed = Feed(parsing: text)

        try feed.setProperty("LANG", to: "fr", inPost: "2025-05-01T12:00:00+0100")

        #expect(feed.text == text.replacingOccurrences(of: ":lang: en", with: ":lang: fr"))
    }

    @Test func setPropertyRefusesTheIDAndBadNamesOrValues() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.self) { try feed.setProperty("ID", to: "x", inPost: Self.first) }
        #expect(throws: OrgSocialError.self) { try feed.setProperty("id", to: "x", inPost: Self.first) }
        #expect(throws: OrgSocialError.self) { try feed.setProperty("TWO WORDS", to: "x", inPost: Self.first) }
        #expect(throws: OrgSocialError.self) { try feed.setProperty("A:B", to: "x", inPost: Self.first) }
        #expect(throws: OrgSocialError.self) { try feed.setProperty("", to: "x", inPost: Self.first) }
        #expect(throws: OrgSocialError.self) { try feed.setProperty("LANG", to: "a\nb", inPost: Self.first) }
        #expect(throws: OrgSocialError.postNotFound(id: "nope")) {
            try feed.setProperty("LANG", to: "x", inPost: "nope")
        }
        #expect(feed.text == Self.base)
    }

    @Test func setPropertyRefusesTheDrawerMarkersAsNames() {
        var feed = Feed(parsing: Self.base)

        for name in ["END", "end", "PROPERTIES", "Properties"] {
            #expect(throws: OrgSocialError.self, "\(name)") { try feed.setProperty(name, to: "1", inPost: Self.first) }
        }
        #expect(feed.text == Self.base)
    }

    @Test func replaceBodyKeepsTheIDAndProperties() throws {
        var feed = Feed(parsing: Self.base)

        try feed.replaceBody(ofPost: Self.first, with: "Replaced.")

        #expect(feed.text == Self.base.replacingOccurrences(of: "First body.", with: "Replaced."))
        #expect(feed.posts[0].language == "en")
        #expect(feed.posts[0].tags == ["one", "two"])
    }

    // MARK: - deletePost

    @Test func deletingTheFirstPostRemovesItAndItsTrailingBlankLines() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.deletePost(id: Self.first)

        let start = uniqueRange(of: "** \(Self.first)", in: old).lowerBound
        let end = uniqueRange(of: "** \(Self.second)", in: old).lowerBound
        expectSplice(old: old, new: feed.bytes, replacing: start..<end, with: [])
        #expect(feed.posts.map(\.id) == [Self.second, Self.third])
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func deletingAMiddlePostRemovesTheBlankLineBeforeIt() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.deletePost(id: Self.second)

        let start = uniqueRange(of: "First body.\n", in: old).upperBound
        let end = uniqueRange(of: "on two lines.\n", in: old).upperBound
        expectSplice(old: old, new: feed.bytes, replacing: start..<end, with: [])
        #expect(feed.posts.map(\.id) == [Self.first, Self.third])
        #expect(feed.text.contains("First body.\n\n** \(Self.third)"))
    }

    @Test func deletingTheLastPostLeavesThePreviousOneEndingTheFile() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.deletePost(id: Self.third)

        let start = uniqueRange(of: "on two lines.\n", in: old).upperBound
        expectSplice(old: old, new: feed.bytes, replacing: start..<old.count, with: [])
        #expect(feed.text.hasSuffix("on two lines.\n"))
    }

    @Test func deletingTheOnlyPostLeavesThePostsHeading() throws {
        var feed = Feed(parsing: "#+TITLE: t\n* Posts\n** 2025-05-01T12:00:00+0100\n\nonly\n\n")

        try feed.deletePost(id: "2025-05-01T12:00:00+0100")

        #expect(feed.text == "#+TITLE: t\n* Posts\n")
        #expect(feed.posts.isEmpty)
        #expect(feed.hasPostsSection)
    }

    @Test func deletingAPostBeforeAnotherSectionKeepsTheSection() throws {
        var feed = Feed(
            parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n\na\n\n** 2025-05-02T12:00:00+0100\n\nb\n* Notes\nn\n")

        try feed.deletePost(id: "2025-05-02T12:00:00+0100")

        #expect(feed.text == "* Posts\n** 2025-05-01T12:00:00+0100\n\na\n* Notes\nn\n")
    }

    @Test func deletingAPostInAFileWithoutFinalNewline() throws {
        var feed = Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n\na\n\n** 2025-05-02T12:00:00+0100\n\nb")

        try feed.deletePost(id: "2025-05-02T12:00:00+0100")

        #expect(feed.text == "* Posts\n** 2025-05-01T12:00:00+0100\n\na\n")
    }

    @Test func deletingAnUnknownPostThrows() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.postNotFound(id: "2025-01-01T00:00:00+0000")) {
            try feed.deletePost(id: "2025-01-01T00:00:00+0000")
        }
        #expect(feed.text == Self.base)
    }

    // MARK: - Keywords

    @Test func setKeywordReplacesOnlyTheValue() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.setKeyword("title", to: "  New title ")

        let line = uniqueRange(of: "#+TITLE: Editor test", in: old)
        expectSplice(
            old: old, new: feed.bytes, replacing: (line.lowerBound + 8)..<line.upperBound, with: utf8(" New title"))
        #expect(feed.profile.title == "New title")
    }

    @Test func setKeywordKeepsTheSpellingOfTheExistingLine() throws {
        var feed = Feed(parsing: "#+title: a\n#+Description:\n")

        try feed.setKeyword("TITLE", to: "b")
        try feed.setKeyword("DESCRIPTION", to: "filled")

        #expect(feed.text == "#+title: b\n#+Description: filled\n")
    }

    @Test func setKeywordInsertsANewLineNextToItsNeighbours() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.setKeyword("DESCRIPTION", to: "Hello")

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "#+NICK: ed\n", in: old).upperBound,
            of: utf8("#+DESCRIPTION: Hello\n"))
        #expect(feed.profile.description == "Hello")
    }

    @Test func setKeywordPutsAnUnknownKeywordAfterTheKnownOnes() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.setKeyword("STARTUP", to: "showall")

        expectInsertion(
            old: old, new: feed.bytes,
            at: uniqueRange(of: "#+GROUP: Org Mode https://relay.example.org\n", in: old).upperBound,
            of: utf8("#+STARTUP: showall\n"))
    }

    @Test func setKeywordInAFileWithoutKeywordsGoesToTheTopAfterABOM() throws {
        let old: [UInt8] = [0xEF, 0xBB, 0xBF] + utf8("* Posts\n")
        var feed = Feed(bytes: old)

        try feed.setKeyword("TITLE", to: "t")

        expectInsertion(old: old, new: feed.bytes, at: 3, of: utf8("#+TITLE: t\n"))
        #expect(feed.profile.title == "t")
    }

    @Test func setKeywordInACRLFFileWritesCRLF() throws {
        var feed = Feed(parsing: "#+TITLE: t\r\n* Posts\r\n")

        try feed.setKeyword("NICK", to: "n")

        #expect(feed.text == "#+TITLE: t\r\n#+NICK: n\r\n* Posts\r\n")
    }

    @Test func setKeywordAfterALastLineWithoutLineBreak() throws {
        var feed = Feed(parsing: "#+TITLE: t")

        try feed.setKeyword("NICK", to: "n")

        #expect(feed.text == "#+TITLE: t\n#+NICK: n\n")
        #expect(feed.profile.nick == "n")
    }

    @Test func clearingAKeywordRemovesEveryLineOfIt() throws {
        var feed = Feed(parsing: "#+TITLE: a\n#+NICK: n\n#+title: b\n* Posts\n")

        try feed.setKeyword("TITLE", to: nil)

        #expect(feed.text == "#+NICK: n\n* Posts\n")
        try feed.setKeyword("NICK", to: "")
        #expect(feed.text == "* Posts\n")
        try feed.setKeyword("LOCATION", to: nil)
        #expect(feed.text == "* Posts\n")
    }

    @Test func setKeywordRefusesLineBreaksAndBadNames() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.self) { try feed.setKeyword("TITLE", to: "a\nb") }
        #expect(throws: OrgSocialError.self) { try feed.setKeyword("TWO WORDS", to: "x") }
        #expect(throws: OrgSocialError.self) { try feed.setKeyword("", to: "x") }
        #expect(throws: OrgSocialError.self) { try feed.addKeyword("LINK", value: "  ") }
        #expect(feed.text == Self.base)
    }

    @Test func addKeywordAppendsAfterTheLastLineOfTheSameKeyword() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.addKeyword("follow", value: "https://c.example/social.org")

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "(work) https://b.example/social.org\n", in: old).upperBound,
            of: utf8("#+FOLLOW: https://c.example/social.org\n"))
    }

    @Test func removeKeywordsRemovesMatchingLinesAndCountsThem() {
        var feed = Feed(parsing: Self.base)

        let removed = feed.removeKeywords("FOLLOW") { $0.hasPrefix("https://") }

        #expect(removed == 1)
        #expect(feed.text == Self.base.replacingOccurrences(of: "#+FOLLOW: https://a.example/social.org\n", with: ""))
    }

    // MARK: - Pin

    @Test func pinAndUnpin() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.pin(postID: Self.second)
        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "#+NICK: ed\n", in: old).upperBound,
            of: utf8("#+PINNED: \(Self.second)\n"))
        #expect(feed.profile.pinned == Self.second)

        try feed.pin(postID: Self.third)
        #expect(feed.profile.pinned == Self.third)
        #expect(feed.profile.values(of: "PINNED").count == 1)

        feed.unpin()
        #expect(feed.bytes == old)
        #expect(throws: OrgSocialError.postNotFound(id: "nope")) { try feed.pin(postID: "nope") }
    }

    // MARK: - Follow

    @Test func followAddsALineWithAOneWordLabelAndRefusesALabelWithSpaces() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        // `#+FOLLOW: <label> <URL>` is read apart at spaces: a label with one would name another feed.
        #expect(throws: OrgSocialError.self) {
            try feed.follow("https://c.example/social.org", label: "Carol's \"notes\" (art)")
        }
        #expect(feed.bytes == old)
        try feed.follow(" https://c.example/social.org ", label: " Carol's-\"notes\" ")

        expectInsertion(
            old: old, new: feed.bytes, at: uniqueRange(of: "(work) https://b.example/social.org\n", in: old).upperBound,
            of: utf8("#+FOLLOW: Carol's-\"notes\" https://c.example/social.org\n"))
        #expect(feed.profile.follows.last == Follow(url: "https://c.example/social.org", label: "Carol's-\"notes\""))
    }

    @Test func followInAFeedWithoutFollowsGoesAfterTheOtherKeywords() throws {
        var feed = Feed(parsing: "#+TITLE: t\n#+NICK: n\n#+CONTACT: mailto:a@b.example\n\n* Posts\n")

        try feed.follow("https://c.example/social.org")

        #expect(
            feed.text
                == "#+TITLE: t\n#+NICK: n\n#+CONTACT: mailto:a@b.example\n#+FOLLOW: https://c.example/social.org\n\n* Posts\n"
        )
    }

    @Test func followRefusesBadURLsAndDuplicates() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.self) { try feed.follow("c.example/social.org") }
        #expect(throws: OrgSocialError.self) { try feed.follow("ftp://c.example/social.org") }
        #expect(throws: OrgSocialError.self) { try feed.follow("https://c.example/social.org", label: "two\nlines") }
        #expect(throws: OrgSocialError.alreadyFollowing(url: "https://b.example/social.org")) {
            try feed.follow("https://b.example/social.org", label: "again")
        }
        #expect(feed.text == Self.base)
    }

    @Test func unfollowByURLOrByLabelWithSpaces() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.unfollow("Best friend (work)")
        expectSplice(
            old: old, new: feed.bytes,
            replacing: uniqueRange(of: "#+FOLLOW: Best friend (work) https://b.example/social.org\n", in: old), with: []
        )

        try feed.unfollow("https://a.example/social.org")
        #expect(feed.profile.follows.isEmpty)
        #expect(throws: OrgSocialError.notFollowing("https://a.example/social.org")) {
            try feed.unfollow("https://a.example/social.org")
        }
    }

    // MARK: - Groups

    @Test func joinGroupAddsALineAfterTheOtherGroups() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.joinGroup(GroupReference(name: " Emacs ", relayURL: "https://relay.example.org"))

        expectInsertion(
            old: old, new: feed.bytes,
            at: uniqueRange(of: "#+GROUP: Org Mode https://relay.example.org\n", in: old).upperBound,
            of: utf8("#+GROUP: Emacs https://relay.example.org\n"))
        #expect(feed.profile.groups.map(\.name) == ["Org Mode", "Emacs"])
    }

    @Test func joinGroupRefusesTheSameGroupAndBadInput() {
        var feed = Feed(parsing: Self.base)

        #expect(throws: OrgSocialError.alreadyInGroup(name: "org mode")) {
            try feed.joinGroup(GroupReference(name: "org mode", relayURL: "https://relay.example.org"))
        }
        #expect(throws: OrgSocialError.self) {
            try feed.joinGroup(GroupReference(name: "  ", relayURL: "https://relay.example.org"))
        }
        #expect(throws: OrgSocialError.self) {
            try feed.joinGroup(GroupReference(name: "Emacs", relayURL: "relay.example.org"))
        }
        #expect(feed.text == Self.base)
    }

    @Test func leaveGroupMatchesTheNameAsRelaysDo() throws {
        let old = utf8(Self.base)
        var feed = Feed(bytes: old)

        try feed.leaveGroup(named: "org  MODE")

        expectSplice(
            old: old, new: feed.bytes,
            replacing: uniqueRange(of: "#+GROUP: Org Mode https://relay.example.org\n", in: old), with: [])
        #expect(throws: OrgSocialError.notInGroup(name: "Org Mode")) { try feed.leaveGroup(named: "Org Mode") }
    }

    // MARK: - Edits keep the rest of a messy file

    @Test func editsKeepCommentsBlankLinesAndUnknownLines() throws {
        let text = """
            # banner   
            #+TITLE: Messy   
            :preamble:
            #+NICK: messy
            :end:
            #+STARTUP: showall

            * Posts

            ** hi
            :PROPERTIES:
            :ID:  2025-05-01T12:00:00+0100
            :Unknown: thing
            :END:
            body with trailing space   
            * Other
            keep

            """
        var feed = Feed(parsing: text)

        try feed.setProperty("MOOD", to: "🙂", inPost: "2025-05-01T12:00:00+0100")
        try feed.setKeyword("NICK", to: "tidy")

        #expect(
            feed.text
                == text
                .replacingOccurrences(of: ":Unknown: thing\n", with: ":Unknown: thing\n:MOOD: 🙂\n")
                .replacingOccurrences(of: "#+NICK: messy", with: "#+NICK: tidy"))
    }

    // MARK: - Regressions found by fuzzing

    @Test func appendPutsThePostAfterStrayTextUnderThePostsHeading() {
        var feed = Feed(parsing: "* Posts\n5")
        let post = feed.append(
            PostDraft(body: "fuzz"), at: Date(timeIntervalSince1970: 0), timeZone: TimeZone(secondsFromGMT: 0)!)
        #expect(post.body == "fuzz")
        #expect(
            feed.text == "* Posts\n5\n\n** 1970-01-01T00:00:00+0000\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n\nfuzz\n")
    }

    @Test func aNewBodyKeepsAnIDThatIsNotATimestampWhereItIs() throws {
        let text = "* Posts\n**\nBody\n:PROPERTIES:\n:ID: legacy-id-1\n:END:\n"
        var feed = Feed(parsing: text)

        try feed.replaceBody(ofPost: "legacy-id-1", with: "New")

        #expect(feed.text == "* Posts\n**\nNew\n:PROPERTIES:\n:ID: legacy-id-1\n:END:\n")
        #expect(feed.posts.map(\.id) == ["legacy-id-1"])
    }
}
