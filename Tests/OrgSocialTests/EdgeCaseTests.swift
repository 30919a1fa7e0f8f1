import Foundation
import OrgSocial
import Testing

/// One test per edge case of spec §15, checking the behaviour of its "Recommend" column. Cases about
/// clients, relays or fetching are tested through what the library provides for them.
struct EdgeCaseTests {
    /// A fixed moment for appends: its ID in UTC is `2025-06-01T10:00:00+0000`.
    static let appendDate = instant("2025-06-01T10:00:00+0000")

    static func composed(_ text: String) -> PostDraft {
        do { return try PostDraft.post(text) } catch { fatalError("bad test draft: \(error)") }
    }

    // MARK: - IDs (cases 1–7)

    @Test func case01_offsetsWithAndWithoutColonAreValidAndKeptAsWritten() {
        let text = "* Posts\n** 2025-05-01T12:00:00+01:00\n\na\n\n** 2025-05-01T12:00:00+0100\n\nb\n"

        var feed = Feed(parsing: text)
        let appended = feed.append(Self.composed("c"), at: Self.appendDate, timeZone: cetZone)

        #expect(Feed(parsing: text).posts.map(\.id) == ["2025-05-01T12:00:00+01:00", "2025-05-01T12:00:00+0100"])
        #expect(Feed(parsing: text).posts.allSatisfy { $0.timestamp?.isValid == true })
        #expect(Feed(parsing: text).diagnostics.isEmpty)
        #expect(appended.id == "2025-06-01T11:00:00+0100")
        #expect(
            feed.posts.map(\.id) == [
                "2025-05-01T12:00:00+01:00", "2025-05-01T12:00:00+0100", "2025-06-01T11:00:00+0100",
            ])
    }

    @Test func case02_malformedIDsAreKeptFlaggedAndStillSortable() {
        let text = """
            * Posts
            ** 2025-05-01T12:00:00Z
            ** 2025-05-01T12:00+0100
            ** 2025-05-01T12:00:00.5+0100
            **
            :PROPERTIES:
            :ID: 2025-08-16T15:41:00-5:00
            :END:
            ** 2025-11-02T10:45:00

            """

        var feed = Feed(parsing: text)

        #expect(
            feed.posts.map(\.id) == [
                "2025-05-01T12:00:00Z", "2025-05-01T12:00+0100", "2025-05-01T12:00:00.5+0100",
                "2025-08-16T15:41:00-5:00",
                "2025-11-02T10:45:00",
            ])
        #expect(feed.posts.allSatisfy { $0.instant == nil && $0.timestamp?.lenientInstant != nil })
        #expect(
            places(feed.diagnostics) == [
                "invalid-post-id@2:4", "invalid-post-id@3:4", "invalid-post-id@4:4", "invalid-post-id@7:6",
                "invalid-post-id@9:4",
            ])
        #expect(feed.diagnostics.allSatisfy { $0.severity == .error })

        let appended = feed.append(Self.composed("new"), at: Self.appendDate, timeZone: utcZone)

        #expect(appended.timestamp?.isValid == true)
        #expect(appended.id == "2025-06-01T10:00:00+0000")
    }

    @Test func case03_headlineIDWinsOverADifferentDrawerIDWithAWarning() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:ID: 2025-05-01T12:00:00+01:00\n:END:\n\ntext\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.id) == ["2025-05-01T12:00:00+0100"])
        #expect(places(feed.diagnostics) == ["conflicting-post-ids@2:4"])
        #expect(feed.diagnostics.first?.severity == .warning)
    }

    @Test func case03_sameIDInHeadlineAndDrawerIsNoConflict() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:ID: 2025-05-01T12:00:00+0100\n:END:\n\ntext\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.id) == ["2025-05-01T12:00:00+0100"])
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func case03_invalidHeadlineTimestampFallsBackToAValidDrawerID() {
        let text = "* Posts\n** 2025-05-01T12:00:00\n:PROPERTIES:\n:ID: 2025-05-01T12:00:00+0100\n:END:\n\ntext\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.id) == ["2025-05-01T12:00:00+0100"])
        #expect(codes(feed.diagnostics) == ["conflicting-post-ids"])
    }

    @Test func case04_headlineTitleFallsBackToTheDrawerIDAndIsKept() {
        let text = "* Posts\n** hi there\n:PROPERTIES:\n:ID: 2025-10-28T13:58:23+0800\n:END:\n\nhello\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.first?.id == "2025-10-28T13:58:23+0800")
        #expect(feed.posts.first?.headlineText == "hi there")
        #expect(places(feed.diagnostics) == ["headline-title@2:4"])
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case05_timestampFollowedByTextIsAcceptedWithAWarning() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100 My title\n:PROPERTIES:\n:END:\n\nbody\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.first?.id == "2025-05-01T12:00:00+0100")
        #expect(feed.posts.first?.headlineText == "My title")
        #expect(places(feed.diagnostics) == ["headline-text-after-id@2:29"])
        #expect(feed.diagnostics.first?.severity == .warning)
    }

    @Test func case06_bareDoubleStarStartsAPost() {
        let text = """
            * Posts
            **
            :PROPERTIES:
            :ID: 2025-05-01T12:00:00+0100
            :END:
            a
            ** \("")
            :PROPERTIES:
            :ID: 2025-05-02T12:00:00+0100
            :END:
            b
            **\t2025-05-03T12:00:00+0100
            c
            *** not a post
            **bold** is not a post
            ***
            """

        let feed = Feed(parsing: text)

        #expect(
            feed.posts.map(\.id) == [
                "2025-05-01T12:00:00+0100", "2025-05-02T12:00:00+0100", "2025-05-03T12:00:00+0100",
            ])
        #expect(feed.posts.map(\.body) == ["a", "b", "c\n*** not a post\n**bold** is not a post\n***"])
        #expect(feed.posts.map(\.headlineText) == [nil, nil, nil])
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func case07_duplicateIDsAreKeptFlaggedAndLookupsHitTheFirst() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n\nfirst\n\n** 2025-05-01T12:00:00+0100\n\nsecond\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.body) == ["first", "second"])
        #expect(feed.post(withID: "2025-05-01T12:00:00+0100")?.body == "first")
        #expect(places(feed.diagnostics) == ["duplicate-post-id@6:1"])
        #expect(feed.diagnostics.first?.severity == .error)
        #expect(places(FeedValidator().validate(feed)).contains("duplicate-post-id@6:1"))
    }

    // MARK: - Sections and layout (cases 8–14)

    @Test func case08_missingPostsSectionIsAFollowOnlyFeed() {
        let text = "#+TITLE: Reader\n#+NICK: reader\n#+FOLLOW: https://a.example/social.org\n"

        let feed = Feed(parsing: text)

        #expect(!feed.hasPostsSection)
        #expect(feed.posts.isEmpty)
        #expect(feed.profile.follows.map(\.url) == ["https://a.example/social.org"])
        #expect(places(feed.diagnostics) == ["missing-posts-section@3:1"])
        #expect(!feed.hasErrors)
        #expect(FeedValidator().validate(feed).allSatisfy { $0.severity == .warning })
    }

    @Test func case09_readersTolerateBlankLinesEverywhere() {
        let text = """
            * Posts


            ** 2025-05-01T12:00:00+0100
            :PROPERTIES:
            :LANG: en
            :END:



            a



            ** 2025-05-02T12:00:00+0100
            :PROPERTIES:
            :END:
            b
            """

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.body) == ["a", "b"])
        #expect(feed.posts.first?.language == "en")
        #expect(places(feed.diagnostics) == ["blank-line-after-posts-heading@2:1"])
    }

    @Test func case09_writerPutsNoBlankAfterPostsOneBetweenPostsAndOneBeforeTheBody() {
        var feed = Feed(parsing: "* Posts\n")

        feed.append(Self.composed("one"), at: Self.appendDate, timeZone: utcZone)
        feed.append(Self.composed("two"), at: Self.appendDate, timeZone: utcZone)

        #expect(
            feed.text == """
                * Posts
                ** 2025-06-01T10:00:00+0000
                :PROPERTIES:
                :CLIENT: orgsocial
                :END:

                one

                ** 2025-06-01T10:00:01+0000
                :PROPERTIES:
                :CLIENT: orgsocial
                :END:

                two

                """)
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func case10_aLevelOneHeadingEndsThePostsSectionAndIsPreserved() {
        let text = """
            #+TITLE: t
            * Posts
            ** 2025-05-01T12:00:00+0100

            last post
            * Notes
            ** 2025-05-02T12:00:00+0100
            :PROPERTIES:
            :END:
            not a post

            """

        var feed = Feed(parsing: text)

        #expect(feed.posts.map(\.body) == ["last post"])
        #expect(feed.otherSections.map(\.title) == ["Notes"])
        #expect(feed.otherSections.map(\.line) == [6])
        #expect(feed.serialized() == utf8(text))

        feed.append(Self.composed("new"), at: Self.appendDate, timeZone: utcZone)

        #expect(feed.posts.map(\.body) == ["last post", "new"])
        #expect(feed.text.hasSuffix("new\n* Notes\n** 2025-05-02T12:00:00+0100\n:PROPERTIES:\n:END:\nnot a post\n"))
    }

    @Test func case11_subHeadingsBelongToThePostBody() {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\n*** A title\nintro\n**** deeper\ntext\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.count == 1)
        #expect(feed.posts[0].body == "*** A title\nintro\n**** deeper\ntext")
    }

    @Test func case12_writerEscapesBodyLinesThatWouldStartAHeading() throws {
        let draft = try PostDraft.post("* one\n** two\n*** three\n*\n**\tx\n *spaced\n*bold*")

        var feed = Feed(parsing: "* Posts\n")
        let post = feed.append(draft, at: Self.appendDate, timeZone: utcZone)

        #expect(draft.escapedBody == " * one\n ** two\n*** three\n *\n **\tx\n *spaced\n*bold*")
        #expect(feed.posts.count == 1)
        #expect(feed.otherSections.isEmpty)
        #expect(post.body == draft.escapedBody)
    }

    @Test func case13_aPostWithoutDrawerIsKept() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\nNo drawer here.\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.id) == ["2025-05-01T12:00:00+0100"])
        #expect(feed.posts.first?.properties.isEmpty == true)
        #expect(feed.posts.first?.body == "No drawer here.")
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func case14_aDrawerAfterTheBodyIsFoundWithAWarning() {
        let text = """
            * Posts
            ** Title of the post
            Body first.

            :PROPERTIES:
            :ID: 2025-05-01T12:00:00+0100
            :LANG: en
            :END:

            """

        let feed = Feed(parsing: text)

        #expect(feed.posts.first?.id == "2025-05-01T12:00:00+0100")
        #expect(feed.posts.first?.language == "en")
        #expect(feed.posts.first?.body == "Body first.")
        #expect(places(feed.diagnostics) == ["headline-title@2:4", "misplaced-drawer@5:1"])
    }

    @Test func case14_aDrawerAfterABlankLineIsFoundWithAWarning() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n\n:PROPERTIES:\n:LANG: en\n:END:\n\ntext\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.first?.language == "en")
        #expect(feed.posts.first?.body == "text")
        #expect(places(feed.diagnostics) == ["misplaced-drawer@4:1"])
    }

    @Test func case14_bodyAroundALateDrawerIsJoined() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\nbefore\n:PROPERTIES:\n:LANG: en\n:END:\nafter\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.body == "before\n\nafter")
        #expect(post.language == "en")
    }

    // MARK: - Properties and keywords (cases 15–23)

    @Test func case15_propertyNamesAreCaseInsensitive() {
        let text = """
            * Posts
            **
            :PROPERTIES:
            :id: 2025-05-01T12:00:00+0100
            :Lang: en
            :reply_to: https://a.example/social.org#2025-04-01T10:00:00+0200
            :END:

            text
            """

        let post = Feed(parsing: text).posts[0]

        #expect(post.id == "2025-05-01T12:00:00+0100")
        #expect(post.language == "en")
        #expect(post.value(of: "LANG") == "en")
        #expect(post.replyTo?.postID == "2025-04-01T10:00:00+0200")
        #expect(post.kind == .reply)
        #expect(post.properties.map(\.name) == ["id", "Lang", "reply_to"])
    }

    @Test func case16_emptyValuesAreAbsentAndValuesAreTrimmed() {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:LANG: \n:TAGS:\n:MOOD:  🎉  \n:CLIENT:\torg-social.el\t\n:END:\n\nx\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.language == nil)
        #expect(post.tags == [])
        #expect(post.mood == "🎉")
        #expect(post.client == "org-social.el")
        #expect(post.properties.map(\.value) == ["", "", "🎉", "org-social.el"])
        #expect(post.properties.map(\.valueColumn) == [8, 7, 9, 10])
    }

    @Test func case17_aRepeatedPropertyKeepsTheFirstValueWithAWarning() {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:TAGS: first\n:TAGS: second\n:MOOD:\n:MOOD: 😊\n:END:\n\nx\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts[0].tags == ["first"])
        #expect(feed.posts[0].mood == "😊")
        #expect(places(feed.diagnostics) == ["duplicate-property@5:1"])
        #expect(feed.diagnostics.first?.severity == .warning)
    }

    @Test func case18_keywordsAreCaseInsensitive() {
        let text =
            "#+title: lower\n#+Nick: mixed\n#+FoLLoW: https://a.example/social.org\n#+group: Emacs https://relay.example\n"

        let profile = Feed(parsing: text).profile

        #expect(profile.title == "lower")
        #expect(profile.nick == "mixed")
        #expect(profile.follows.map(\.url) == ["https://a.example/social.org"])
        #expect(profile.groups.map(\.name) == ["Emacs"])
    }

    @Test func case19_anEmptyKeywordValueDoesNotSwallowTheNextLine() {
        let text = "#+TITLE: t\n#+DESCRIPTION:\n#+AVATAR: https://a.example/me.png\n#+NICK:   \n* Posts\n"

        let feed = Feed(parsing: text)

        #expect(feed.profile.description == nil)
        #expect(feed.profile.avatar == "https://a.example/me.png")
        #expect(feed.profile.nick == nil)
        #expect(feed.profile.keywords.map(\.value) == ["t", "", "https://a.example/me.png", ""])
        #expect(places(FeedValidator().validate(feed)) == ["missing-nick@4:1"])
    }

    @Test func case20_aRepeatedSingleValuedKeywordKeepsTheFirstValue() {
        let text =
            "#+TITLE: First\n#+TITLE: Second\n#+NICK: n\n#+nick: m\n#+LINK: https://a\n#+LINK: https://b\n* Posts\n"

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "First")
        #expect(feed.profile.nick == "n")
        #expect(feed.profile.links == ["https://a", "https://b"])
        #expect(places(feed.diagnostics) == ["duplicate-keyword@2:1", "duplicate-keyword@4:1"])
    }

    @Test func case21_aFollowLabelWithSpacesAndQuotesLeavesTheURLLast() {
        let text = """
            #+FOLLOW: alephoto85's "The house with laughing windows" https://www.alessandroliguori.it/social.org
            #+FOLLOW: Andros' journal (Creator of Org Social) https://andros.dev/static/social.org
            #+FOLLOW: myBestFriend https://jane.example/social.org
            #+FOLLOW: https://lucy.example/social.org

            """

        let feed = Feed(parsing: text)

        #expect(
            feed.profile.follows == [
                Follow(
                    url: "https://www.alessandroliguori.it/social.org",
                    label: "alephoto85's \"The house with laughing windows\""),
                Follow(url: "https://andros.dev/static/social.org", label: "Andros' journal (Creator of Org Social)"),
                Follow(url: "https://jane.example/social.org", label: "myBestFriend"),
                Follow(url: "https://lucy.example/social.org"),
            ])
        #expect(!FeedValidator().validate(feed).contains { $0.code == .invalidFollow })
    }

    @Test func case22_aFollowURLWithTrailingJunkIsKeptButFlagged() throws {
        let text =
            "#+TITLE: t\n#+NICK: n\n#+FOLLOW:  https://rosaelefanten.org/social.org\"\n#+FOLLOW: friend social.org\n* Posts\n"

        var feed = Feed(parsing: text)

        #expect(feed.profile.follows.map(\.url) == ["https://rosaelefanten.org/social.org\"", "social.org"])
        #expect(places(FeedValidator().validate(feed)) == ["invalid-follow@3:12", "invalid-follow@4:11"])
        #expect(throws: OrgSocialError.self) { try feed.follow("https://a.example/social.org\"") }
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case23_keywordsCountOnlyInTheHeaderOutsideBlocks() {
        let text = """
            #+TITLE: Real
            #+begin_src org
            #+NICK: fake
            #+end_src
            #+BEGIN_EXAMPLE
            #+DESCRIPTION: fake
            #+END_EXAMPLE
              #+begin_quote
              #+AVATAR: https://fake.example/a.png
              #+end_quote
            #+NICK: real
            * Posts
            ** 2025-05-01T12:00:00+0100
            #+PINNED: 2025-05-01T12:00:00+0100
            #+TITLE: not a keyword

            """

        let feed = Feed(parsing: text)

        #expect(feed.profile.keywords.map(\.name) == ["TITLE", "NICK"])
        #expect(feed.profile.nick == "real")
        #expect(feed.profile.description == nil)
        #expect(feed.profile.avatar == nil)
        #expect(feed.profile.pinned == nil)
        #expect(feed.posts[0].body == "#+PINNED: 2025-05-01T12:00:00+0100\n#+TITLE: not a keyword")
    }

    // MARK: - Bytes and text (cases 24–29)

    @Test(arguments: ["\r\n", "\r"])
    func case24_crlfAndCRFilesReadWithoutCarriageReturns(_ lineBreak: String) {
        let lines = [
            "#+TITLE: Windows", "#+NICK: win", "", "* Posts", "** 2025-05-01T12:00:00+0100", ":PROPERTIES:",
            ":LANG: en",
            ":END:", "", "line one", "line two", "",
        ]
        let text = lines.joined(separator: lineBreak)

        let feed = Feed(parsing: text)

        #expect(feed.lineEnding == (lineBreak == "\r\n" ? .crlf : .cr))
        #expect(feed.profile.title == "Windows")
        #expect(feed.profile.nick == "win")
        #expect(feed.posts.map(\.id) == ["2025-05-01T12:00:00+0100"])
        #expect(feed.posts[0].language == "en")
        #expect(feed.posts[0].body == "line one\nline two")
        #expect(feed.posts[0].line == 5)
        #expect(places(feed.diagnostics) == ["line-endings@1:1"])
        #expect(feed.diagnostics[0].severity == .warning)
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case25_tabsSeparateValuesAndAreKeptInBodies() {
        let text =
            "#+TITLE:\tTabbed\n#+NICK:\tt\n#+FOLLOW: friend\thttps://f.example/social.org\n* Posts\n**\t2025-05-01T12:00:00+0100\t\n:PROPERTIES:\n:LANG:\ten\t\n:END:\n\n\tindented\tbody\n"

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "Tabbed")
        #expect(feed.profile.follows == [Follow(url: "https://f.example/social.org", label: "friend")])
        #expect(feed.posts.first?.id == "2025-05-01T12:00:00+0100")
        #expect(feed.posts.first?.language == "en")
        #expect(feed.posts.first?.body == "\tindented\tbody")
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func case26_aByteOrderMarkIsSkippedReportedAndKept() {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + utf8("#+TITLE: Bom\n#+NICK: bom\n* Posts\n")

        let feed = Feed(bytes: bytes)

        #expect(feed.hasByteOrderMark)
        #expect(feed.profile.title == "Bom")
        #expect(feed.profile.keywords.first?.valueColumn == 10)
        #expect(places(feed.diagnostics) == ["byte-order-mark@1:1"])
        #expect(feed.serialized() == bytes)
    }

    @Test func case27_unicodeValuesBodiesAndColumnsCountScalars() {
        let text = """
            #+TITLE: 日本語のフィード
            #+NICK: 👩‍💻dev
            #+DESCRIPTION: 🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scottish :: עברית
            #+TÍTULO: x
            * Posts
            ** 2025-05-01T12:00:00+0100
            :PROPERTIES:
            :MOOD: 👩🏽‍🚀
            :ÉTAT: prêt
            :END:

            مرحبا بالعالم
            日本からこんにちは 🙂

            """

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "日本語のフィード")
        #expect(feed.profile.nick == "👩‍💻dev")
        #expect(feed.profile.description == "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scottish :: עברית")
        #expect(feed.profile.keywords[3].valueColumn == 11)
        #expect(feed.posts[0].mood == "👩🏽‍🚀")
        #expect(feed.posts[0].value(of: "ÉTAT") == "prêt")
        #expect(feed.posts[0].properties[1].valueColumn == 8)
        #expect(feed.posts[0].body == "مرحبا بالعالم\n日本からこんにちは 🙂")
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case28_trailingWhitespaceIsTrimmedFromValuesAndKeptInBodies() {
        let text =
            "#+TITLE: Title   \n#+NICK: n \t\n* Posts\n** 2025-05-01T12:00:00+0100   \n:PROPERTIES:\n:LANG: en  \n:END:\n\nline with trailing   \nlast line  \n  \n"

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "Title")
        #expect(feed.profile.nick == "n")
        #expect(feed.posts.first?.id == "2025-05-01T12:00:00+0100")
        #expect(feed.posts.first?.language == "en")
        #expect(feed.posts.first?.body == "line with trailing   \nlast line  ")
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case29_aFileWithoutFinalNewlineParsesAndTheWriterEndsWithOne() {
        let text = "#+TITLE: t\n* Posts\n** 2025-05-01T12:00:00+0100\n\nlast"

        var feed = Feed(parsing: text)

        #expect(feed.posts.first?.body == "last")
        #expect(feed.serialized() == utf8(text))

        feed.append(Self.composed("new"), at: Self.appendDate, timeZone: utcZone)

        #expect(feed.text == text + "\n\n** 2025-06-01T10:00:00+0000\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n\nnew\n")
    }

    // MARK: - Social semantics (cases 30–40)

    @Test func case30_aRelativeReplyToIsReadButFlaggedAndComposersRefuseIt() {
        let text =
            "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-10-30T10:00:00+0000\n:PROPERTIES:\n:REPLY_TO: social.org#2025-10-29T12:12:30+00:00\n:END:\n\nhi\n"

        let feed = Feed(parsing: text)
        let reference = PostReference(feedURL: "social.org", postID: "2025-10-29T12:12:30+00:00")

        #expect(feed.posts[0].replyTo == reference)
        #expect(places(FeedValidator().validate(feed)) == ["invalid-reply-to@6:12"])
        #expect(throws: OrgSocialError.self) { try PostDraft.reply(to: reference, text: "hi") }
        #expect(throws: OrgSocialError.self) { try PostDraft.boost(of: reference) }
    }

    @Test func case31_anEmptyBodyMakesAMoodReplyAReaction() {
        let head =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:REPLY_TO: https://a.example/s.org#2025-04-01T10:00:00+0200\n:MOOD: ❤\n:END:\n"

        #expect(Feed(parsing: head).posts[0].kind == .reaction)
        #expect(Feed(parsing: head + "\n  \n\n").posts[0].kind == .reaction)
        #expect(Feed(parsing: head + "\nLove it!\n").posts[0].kind == .reply)
        #expect(Feed(parsing: head + "\nLove it!\n").posts[0].mood == "❤")
    }

    @Test func case32_votesMustNameAnOptionOfAnOpenPoll() throws {
        let poll = Feed(
            parsing: """
                * Posts
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :POLL_END: 2025-05-08T12:00:00+0100
                :END:

                Best fish?
                - [ ] Tuna (classic choice)
                - [ ] Salmon

                """
        ).posts[0]
        let target = PostReference(feedURL: "https://cat.example/social.org", postID: "2025-05-01T12:00:00+0100")
        let before = instant("2025-05-02T00:00:00+0000")
        let after = instant("2025-05-09T00:00:00+0000")

        let vote = try PostDraft.vote(on: target, option: " Tuna (classic choice) ", pollPost: poll, now: before)

        #expect(vote.pollOption == "Tuna (classic choice)")
        #expect(vote.replyTo == target)
        #expect(throws: OrgSocialError.self) {
            try PostDraft.vote(on: target, option: "Tuna", pollPost: poll, now: before)
        }
        #expect(throws: OrgSocialError.self) {
            try PostDraft.vote(on: target, option: "Salmon", pollPost: poll, now: after)
        }
        #expect(try PostDraft.vote(on: target, option: "Anything", now: after).pollOption == "Anything")
    }

    @Test func case33_futurePostsParseAndTheirInstantLetsClientsHideThem() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n\nnow\n\n** 2999-01-01T00:00:00+0000\n\nscheduled\n"
        let now = instant("2026-01-01T00:00:00+0000")

        let feed = Feed(parsing: text)
        let visible = feed.posts.filter { ($0.instant ?? .distantFuture) <= now }

        #expect(feed.posts.count == 2)
        #expect(feed.diagnostics.isEmpty)
        #expect(visible.map(\.body) == ["now"])
        #expect(feed.posts[1].instant == Date(timeIntervalSince1970: 32_472_144_000))
    }

    @Test func case34_aFiveDigitYearIsNoValidIDAndSortsLast() {
        let text = """
            * Posts
            ** 40000-01-01T00:00:00+0100

            headline
            **
            :PROPERTIES:
            :ID: 40000-01-01T00:00:00+0100
            :END:

            drawer
            ** 2025-05-01T12:00:00+0100

            normal
            """

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.id) == [nil, "40000-01-01T00:00:00+0100", "2025-05-01T12:00:00+0100"])
        #expect(feed.posts.map(\.headlineText) == ["40000-01-01T00:00:00+0100", nil, nil])
        #expect(feed.posts[1].timestamp?.sortInstant == nil)
        #expect(feed.postsSortedByDate().map(\.body) == ["normal", "headline", "drawer"])
        #expect(places(feed.diagnostics) == ["missing-post-id@2:1", "headline-title@2:4", "invalid-post-id@7:6"])
    }

    @Test func case35_newestFirstFilesSortByInstantWithStableTies() {
        let text = """
            * Posts
            ** 2025-08-16T15:41:00-0500

            third
            ** 2025-08-16T14:26:00-0500

            first
            ** 2025-08-16T14:26:00-0500

            second (same ID, later in file)
            """

        let feed = Feed(parsing: text)

        #expect(
            feed.postsSortedByDate(newestFirst: false).map(\.body) == [
                "first", "second (same ID, later in file)", "third",
            ])
        #expect(feed.postsSortedByDate().map(\.body) == ["third", "first", "second (same ID, later in file)"])
    }

    @Test func case36_theSameInstantWithDifferentOffsetsGivesDistinctPosts() {
        let text = """
            * Posts
            ** 2025-05-01T12:00:00+0100

            a
            ** 2025-05-01T11:00:00+0000

            b
            ** 2025-05-01T12:00:00+01:00

            c
            """

        let feed = Feed(parsing: text)

        #expect(feed.posts.count == 3)
        #expect(Set(feed.posts.compactMap(\.id)).count == 3)
        #expect(Set(feed.posts.compactMap(\.instant)).count == 1)
        #expect(feed.diagnostics.isEmpty)
        #expect(feed.postsSortedByDate().map(\.body) == ["a", "b", "c"])
        #expect(feed.postsSortedByDate(newestFirst: false).map(\.body) == ["a", "b", "c"])
    }

    @Test func case37_feedURLsDifferingBeyondSpellingAreDistinctFeeds() throws {
        var feed = Feed(parsing: "#+TITLE: t\n#+NICK: n\n#+FOLLOW: https://x.example/social.org\n* Posts\n")

        try feed.follow("https://www.x.example/social.org")
        try feed.follow("http://x.example/social.org")

        #expect(
            feed.profile.follows.map(\.url) == [
                "https://x.example/social.org", "https://www.x.example/social.org", "http://x.example/social.org",
            ])
        #expect(throws: OrgSocialError.alreadyFollowing(url: "https://x.example/social.org")) {
            try feed.follow("https://x.example/social.org")
        }
    }

    @Test func followRefusesAnotherSpellingOfAFollowedFeedAndUnfollowMatchesAnySpelling() throws {
        var feed = Feed(parsing: "#+TITLE: t\n#+NICK: n\n#+FOLLOW: http://host/bob/social.org\n* Posts\n")

        for spelling in [
            "HTTP://HOST/bob/social.org", "http://host/bob/./social.org", "http://host:80//bob/social.org",
        ] {
            #expect(throws: OrgSocialError.alreadyFollowing(url: "http://host/bob/social.org")) {
                try feed.follow(spelling)
            }
        }
        try feed.follow("HTTP://Other.example/./social.org")
        #expect(feed.profile.follows.map(\.url) == ["http://host/bob/social.org", "http://other.example/social.org"])

        try feed.unfollow("HTTP://HOST/bob/social.org")
        #expect(feed.profile.follows.map(\.url) == ["http://other.example/social.org"])
    }

    @Test func case38_aHashInsideTheFeedURLSplitsAtTheLastHash() {
        let text =
            "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:REPLY_TO: https://a.example/feed#main/social.org#2025-04-01T10:00:00+0200\n:END:\n\nhi\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts[0].replyTo?.feedURL == "https://a.example/feed#main/social.org")
        #expect(feed.posts[0].replyTo?.postID == "2025-04-01T10:00:00+0200")
        #expect(FeedValidator().validate(feed).isEmpty)
    }

    @Test func case39_aMentionWithoutDescriptionIsRecognised() {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n\nHi [[org-social:https://a.example/social.org]]!\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.mentions == [Mention(feedURL: "https://a.example/social.org", name: nil)])
    }

    @Test func case40_anUnknownVisibilityReadsAsPublicWithAWarning() {
        let text =
            "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:VISIBILITY: Mention\n:END:\n\nhi\n"
            + "** 2025-05-02T12:00:00+0100\n:PROPERTIES:\n:VISIBILITY: private\n:END:\n\nho\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.map(\.visibility) == [.unknown("Mention"), .unknown("private")])
        #expect(feed.posts.allSatisfy { !$0.visibility.isMentionOnly })
        #expect(places(FeedValidator().validate(feed)) == ["invalid-visibility@6:14", "invalid-visibility@12:14"])
        #expect(FeedValidator().validate(feed).allSatisfy { $0.severity == .warning })
    }

    // MARK: - Files in the wild (cases 41–45)

    @Test func case41_aLargeGeneratedFeedParsesAndRoundTrips() {
        var text = "#+TITLE: Big\n#+NICK: big\n* Posts\n"
        let start = instant("2020-01-01T00:00:00+0000")
        var ids: [String] = []
        for index in 0..<5000 {
            let id = OrgTimestamp.format(start + Double(index) * 3600, timeZone: utcZone)
            ids.append(id)
            text +=
                "** \(id)\n:PROPERTIES:\n:LANG: en\n:END:\n\nPost number \(index) with some text to make it longer.\n\n"
        }

        let feed = Feed(parsing: text)

        #expect(feed.bytes.count > 500_000)
        #expect(feed.posts.count == 5000)
        #expect(feed.posts.compactMap(\.id) == ids)
        #expect(feed.posts[4999].body == "Post number 4999 with some text to make it longer.")
        #expect(feed.diagnostics.isEmpty)
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case42_invalidUTF8ReadsAsReplacementCharactersWithAnError() {
        let bytes =
            utf8("#+TITLE: Caf") + [0xE9] + utf8("\n#+NICK: n\n* Posts\n** 2025-05-01T12:00:00+0100\n\n日本")
            + [0xFF, 0xFE] + utf8(" text\n")

        let feed = Feed(bytes: bytes)

        #expect(feed.profile.title == "Caf\u{FFFD}")
        #expect(feed.posts[0].body == "日本\u{FFFD}\u{FFFD} text")
        #expect(places(feed.diagnostics) == ["invalid-utf8@1:13", "invalid-utf8@6:3"])
        #expect(feed.diagnostics.allSatisfy { $0.severity == .error })
        #expect(feed.diagnostics[1].message.hasPrefix("2 bytes"))
        #expect(feed.hasErrors)
        #expect(feed.serialized() == bytes)
    }

    @Test func case43_theLinkKeywordIsOnlyAProfileURL() {
        let feed = Feed(
            parsing:
                "#+TITLE: t\n#+NICK: n\n#+LINK: https://me.example\n#+LINK: org-social https://x.example\n* Posts\n")

        #expect(feed.profile.links == ["https://me.example", "org-social https://x.example"])
        #expect(places(FeedValidator().validate(feed)) == ["invalid-link@4:9"])
    }

    @Test func case44_anHTMLPageIsNoFeed() {
        let text = "<!DOCTYPE html>\n<html><head><title>Dropbox</title></head>\n<body>* Posts</body></html>\n"

        let feed = Feed(parsing: text)

        #expect(feed.profile.keywords.isEmpty)
        #expect(feed.posts.isEmpty)
        #expect(!feed.hasPostsSection)
        #expect(
            places(FeedValidator().validate(feed)) == [
                "missing-nick@1:1", "missing-title@1:1", "missing-posts-section@3:1",
            ])
        #expect(feed.serialized() == utf8(text))
    }

    @Test func case45_anOrgUUIDInTheIDPropertyIsNoPostID() {
        let text = "* Posts\n**\n:PROPERTIES:\n:ID: a73d3c63-eb1e-4a55-8f5e-0e0e0e0e0e0e\n:END:\n\nhi\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.count == 1)
        #expect(feed.posts[0].id == nil)
        #expect(places(feed.diagnostics) == ["invalid-post-id@4:6"])
        #expect(feed.diagnostics[0].message.contains("UUID"))
    }

    @Test func case45_aUUIDBesideAHeadlineIDDoesNotConflict() {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:ID: a73d3c63-eb1e-4a55-8f5e-0e0e0e0e0e0e\n:END:\n\nhi\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts[0].id == "2025-05-01T12:00:00+0100")
        #expect(feed.diagnostics.isEmpty)
    }
}
