import Foundation
import OrgSocial
import Testing

/// General parsing: the profile keywords, posts and their properties, bodies, kinds and lookups
/// (spec §3–§7). The edge cases of spec §15 are in `EdgeCaseTests`.
struct ParserTests {
    // MARK: - Whole feeds

    @Test func readsTheSpecsMinimalFeed() {
        let text = """
            #+TITLE: Ana's journal
            #+NICK: ana

            * Posts
            ** 2026-01-10T09:15:00+0100
            :PROPERTIES:
            :END:

            First post.

            """

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "Ana's journal")
        #expect(feed.profile.nick == "ana")
        #expect(feed.hasPostsSection)
        #expect(feed.posts.count == 1)
        #expect(feed.posts.first?.id == "2026-01-10T09:15:00+0100")
        #expect(feed.posts.first?.body == "First post.")
        #expect(feed.posts.first?.properties.isEmpty == true)
        #expect(feed.posts.first?.line == 5)
        #expect(feed.diagnostics.isEmpty)
        #expect(feed.lineEnding == .lf)
        #expect(!feed.hasByteOrderMark)
    }

    @Test func parsingTextAndBytesGiveTheSameFeed() {
        let text = "#+TITLE: t\n#+NICK: n\n* Posts\n** 2025-01-01T00:00:00+0000\nhi\n"

        let fromText = Feed(parsing: text)
        let fromBytes = Feed(bytes: utf8(text))
        let fromParser = OrgSocialParser().parse(bytes: utf8(text))

        #expect(fromText == fromBytes)
        #expect(fromText == fromParser)
        #expect(fromText.posts == fromBytes.posts)
        #expect(fromText.text == text)
        #expect(fromText.data == Data(text.utf8))
    }

    @Test func theEmptyFeedHasNoBytesNoPostsAndNoDiagnostics() {
        let feed = Feed.empty

        #expect(feed.bytes.isEmpty)
        #expect(feed.posts.isEmpty)
        #expect(feed.profile.keywords.isEmpty)
        #expect(feed.diagnostics.isEmpty)
        #expect(!feed.hasPostsSection)
        #expect(feed.lineEnding == .lf)
    }

    @Test func feedsAreEqualExactlyWhenTheirBytesAre() {
        let a = Feed(parsing: "#+TITLE: a\n")
        let b = Feed(parsing: "#+TITLE: a\n")
        let c = Feed(parsing: "#+TITLE: a \n")

        #expect(a == b)
        #expect(a != c)
        #expect(a.profile.title == c.profile.title)
    }

    // MARK: - Profile

    @Test func readsEveryProfileKeyword() throws {
        let feed = try Fixture.feed("canonical.org")
        let profile = feed.profile

        #expect(profile.title == "Ana's journal")
        #expect(profile.nick == "ana")
        #expect(profile.description == "Notes from the garden")
        #expect(profile.avatar == "https://ana.example/avatar.png")
        #expect(profile.links == ["https://ana.example", "https://code.example/ana"])
        #expect(profile.location == "Valencia, Spain")
        #expect(profile.birthday == "1990-04-12")
        #expect(profile.languages == ["en", "es"])
        #expect(profile.pinned == "2025-05-01T12:00:00+0100")
        #expect(profile.contacts == ["mailto:ana@ana.example", "xmpp:ana@ana.example"])
        #expect(profile.groups == [GroupReference(name: "Emacs", relayURL: "https://relay.example.org")])
        #expect(
            profile.follows == [
                Follow(url: "https://bob.example/social.org"),
                Follow(url: "https://work.bob.example/social.org", label: "Bob's \"other\" feed (work)"),
            ])
        #expect(profile.keywords.count == 15)
        #expect(profile.keywords.first == Property(name: "TITLE", value: "Ana's journal", line: 2, valueColumn: 10))
    }

    @Test func keepsUnknownKeywordsButGivesThemNoMeaning() {
        let feed = Feed(parsing: "#+STARTUP: showall\n#+TITLE: t\n#+OPTIONS: toc:nil\n#+AUTHOR: Someone\n* Posts\n")

        #expect(feed.profile.keywords.map(\.name) == ["STARTUP", "TITLE", "OPTIONS", "AUTHOR"])
        #expect(feed.profile.value(of: "options") == "toc:nil")
        #expect(feed.profile.title == "t")
        #expect(feed.profile.nick == nil)
        #expect(!Profile.knownKeywords.contains("AUTHOR"))
    }

    @Test func readsKeywordsAmongBlankLinesCommentsAndDrawers() {
        let text = """
            # A banner comment
            #+TITLE: Spaced

            # another comment
            #+NICK: spaced
            :preamble:
            #+DESCRIPTION: inside a drawer
            :end:
              #+LINK: https://indented.example

            * Posts

            """

        let feed = Feed(parsing: text)

        #expect(feed.profile.title == "Spaced")
        #expect(feed.profile.nick == "spaced")
        #expect(feed.profile.description == "inside a drawer")
        #expect(feed.profile.links == ["https://indented.example"])
        #expect(feed.profile.keywords.map(\.line) == [2, 5, 7, 9])
        #expect(feed.profile.keywords.map(\.valueColumn) == [10, 9, 16, 11])
    }

    @Test func valueAndValuesLookKeywordsUpIgnoringCase() {
        let feed = Feed(parsing: "#+link: https://a.example\n#+Link: https://b.example\n#+LINK:\n#+title: T\n")

        #expect(feed.profile.values(of: "LINK") == ["https://a.example", "https://b.example"])
        #expect(feed.profile.links == ["https://a.example", "https://b.example"])
        #expect(feed.profile.value(of: "Title") == "T")
        #expect(feed.profile.value(of: "nick") == nil)
    }

    // MARK: - Posts and properties

    @Test func readsTypedPostProperties() {
        let text = """
            * Posts
            ** 2025-05-01T12:00:00+0100
            :PROPERTIES:
            :LANG: es
            :TAGS: #emacs org-mode  spring
            :CLIENT: org-social.el
            :REPLY_TO: https://a.example/social.org#2025-04-01T10:00:00+0200
            :INCLUDE: https://b.example/social.org#2025-04-02T10:00:00+0200
            :POLL_END: 2025-05-08T12:00:00+0100
            :POLL_OPTION: Yes
            :GROUP: Org Mode https://relay.example.org
            :VISIBILITY: mention
            :MIGRATION: https://old.example/social.org https://new.example/social.org
            :BOT: chess e4 e5
            :MOOD: 🎉
            :URL: https://blog.example/post
            :END:

            text

            """

        let post = Feed(parsing: text).posts[0]

        #expect(post.language == "es")
        #expect(post.tags == ["emacs", "org-mode", "spring"])
        #expect(post.client == "org-social.el")
        #expect(
            post.replyTo == PostReference(feedURL: "https://a.example/social.org", postID: "2025-04-01T10:00:00+0200"))
        #expect(
            post.include == PostReference(feedURL: "https://b.example/social.org", postID: "2025-04-02T10:00:00+0200"))
        #expect(post.pollEnd?.raw == "2025-05-08T12:00:00+0100")
        #expect(post.pollEnd?.instant == instant("2025-05-08T12:00:00+0100"))
        #expect(post.pollOption == "Yes")
        #expect(post.group == GroupReference(name: "Org Mode", relayURL: "https://relay.example.org"))
        #expect(post.visibility == .mention)
        #expect(
            post.migration
                == Migration(oldURL: "https://old.example/social.org", newURL: "https://new.example/social.org"))
        #expect(post.bot == BotPayload(type: "chess", parameters: ["e4", "e5"]))
        #expect(post.mood == "🎉")
        #expect(post.value(of: "url") == "https://blog.example/post")
        #expect(
            post.properties.map(\.name) == [
                "LANG", "TAGS", "CLIENT", "REPLY_TO", "INCLUDE", "POLL_END", "POLL_OPTION", "GROUP", "VISIBILITY",
                "MIGRATION", "BOT", "MOOD", "URL",
            ])
        #expect(post.properties.map(\.line) == Array(4...16))
        #expect(post.instant == instant("2025-05-01T12:00:00+0100"))
    }

    @Test func absentPropertiesReadAsNilAndPublic() {
        let post = Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n\nhello\n").posts[0]

        #expect(post.language == nil)
        #expect(post.tags == [])
        #expect(post.client == nil)
        #expect(post.replyTo == nil)
        #expect(post.include == nil)
        #expect(post.pollEnd == nil)
        #expect(post.pollOption == nil)
        #expect(post.group == nil)
        #expect(post.visibility == .public)
        #expect(post.migration == nil)
        #expect(post.bot == nil)
        #expect(post.mood == nil)
        #expect(post.mentions == [])
        #expect(post.pollOptions == [])
        #expect(post.kind == .post)
    }

    @Test func derivesTheKindOfEveryPostOfTheCanonicalFixture() throws {
        let feed = try Fixture.feed("canonical.org")

        #expect(
            feed.posts.map(\.kind) == [
                .post, .reply, .reaction, .boost, .quoteBoost, .poll, .vote, .post, .post, .bot, .migration,
            ])
        #expect(feed.posts.map(\.line) == [19, 29, 37, 44, 50, 58, 69, 76, 84, 92, 100])
        #expect(feed.posts.map(\.index) == Array(0...10))
        #expect(
            feed.posts.map(\.hasEmptyBody) == [false, false, true, true, false, false, true, false, false, false, true])
        #expect(feed.posts[5].pollOptions == ["Tomatoes", "Peppers"])
        #expect(feed.posts[6].pollOption == "Beans")
        #expect(feed.posts[7].group?.slug == "emacs")
        #expect(feed.posts[8].visibility.isMentionOnly)
    }

    @Test(arguments: [
        (":REPLY_TO: https://a.example/s.org#2025-01-01T00:00:00+0000\n:MOOD: 👍", "", PostKind.reaction),
        (":REPLY_TO: https://a.example/s.org#2025-01-01T00:00:00+0000\n:MOOD: 👍", "Nice!", PostKind.reply),
        (":REPLY_TO: https://a.example/s.org#2025-01-01T00:00:00+0000", "", PostKind.reply),
        (":REPLY_TO: https://a.example/s.org#2025-01-01T00:00:00+0000\n:POLL_OPTION: A", "", PostKind.vote),
        (":REPLY_TO: https://a.example/s.org#2025-01-01T00:00:00+0000\n:POLL_OPTION: A\n:MOOD: 👍", "", PostKind.vote),
        (":POLL_OPTION: A", "", PostKind.post),
        (":INCLUDE: https://a.example/s.org#2025-01-01T00:00:00+0000", "", PostKind.boost),
        (":INCLUDE: https://a.example/s.org#2025-01-01T00:00:00+0000", "So true", PostKind.quoteBoost),
        (":POLL_END: 2025-01-08T00:00:00+0000", "Q?\n- [ ] a", PostKind.poll),
        (":MIGRATION: https://a.example/s.org https://b.example/s.org", "", PostKind.migration),
        (":BOT: dice 6", "Rolled a 6", PostKind.bot),
        (":MOOD: 😊", "", PostKind.post),
        (":MOOD:", "text", PostKind.post),
        (":REPLY_TO:\n:MOOD: 👍", "", PostKind.post),
    ])
    func derivesThePostKindFromPropertiesAndBody(_ drawer: String, _ body: String, _ kind: PostKind) {
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n\(drawer)\n:END:\n\n\(body)\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.kind == kind)
        #expect(post.hasEmptyBody == body.isEmpty)
    }

    // MARK: - Bodies

    @Test func bodyDropsOuterBlankLinesAndKeepsInnerOnesVerbatim() {
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\n \n  First line  \n\n\t\nsecond *bold* /it/\n\n\n** 2025-05-02T12:00:00+0100\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.body == "  First line  \n\n\t\nsecond *bold* /it/")
        #expect(
            post.rawText
                == "** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\n \n  First line  \n\n\t\nsecond *bold* /it/\n")
        #expect(decoded(post.rawBytes) == post.rawText)
    }

    @Test func bodyKeepsOrgMarkupBlocksTablesAndSubHeadings() {
        let body = """
            *** A title
            Some =code= and ~verbatim~ and [[https://x.example][a link]].
            #+BEGIN_SRC emacs-lisp
            (message "hi")
            #+END_SRC
            | a | b |
            |---+---|
            | 1 | 2 |
            #+TBLFM: $2=$1
            **** Deeper
            - [X] done
            """
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\n\(body)\n"

        let feed = Feed(parsing: text)

        #expect(feed.posts.count == 1)
        #expect(feed.posts[0].body == body)
    }

    @Test func aPostWithoutBodyHasAnEmptyBody() {
        let post = Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:MOOD: 👍\n:END:\n\n\n").posts[0]

        #expect(post.body == "")
        #expect(post.hasEmptyBody)
        #expect(post.rawText == "** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:MOOD: 👍\n:END:\n")
    }

    // MARK: - Mentions and polls

    @Test func findsMentionsWithAndWithoutDescriptionInOrder() {
        let body =
            "Hi [[org-social:https://a.example/social.org][ana]] and [[org-social:https://b.example/social.org]], "
            + "not [[https://c.example][c]] nor [[org-social:][empty]]; [[org-social:https://d.example/s.org][Dee Dee]]."
        let text = "* Posts\n** 2025-05-01T12:00:00+0100\n\n\(body)\n"

        let mentions = Feed(parsing: text).posts[0].mentions

        #expect(
            mentions == [
                Mention(feedURL: "https://a.example/social.org", name: "ana"),
                Mention(feedURL: "https://b.example/social.org", name: nil),
                Mention(feedURL: "https://d.example/s.org", name: "Dee Dee"),
            ])
    }

    @Test func mentionLinkIsTheOrgLinkTheScannerReads() {
        let link = Mention.link(to: "https://a.example/social.org", name: "ana")

        let post = Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n\nHi \(link)\n").posts[0]

        #expect(link == "[[org-social:https://a.example/social.org][ana]]")
        #expect(post.mentions == [Mention(feedURL: "https://a.example/social.org", name: "ana")])
    }

    @Test func readsPollOptionsInTheLenientForm() {
        let body = """
            Which one?
            - [ ] Strict
            -[ ]Tight
              - [  ]   Indented and spaced   
            \t- [ ] Tabbed
            - [X] Checked is not an option
            + [ ] Plus is not an option
            - [ ]
            - [ ] Last
            """
        let text =
            "* Posts\n** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:POLL_END: 2025-05-02T12:00:00+0100\n:END:\n\n\(body)\n"

        let post = Feed(parsing: text).posts[0]

        #expect(post.pollOptions == ["Strict", "Tight", "Indented and spaced", "Tabbed", "Last"])
    }

    // MARK: - Lookups, URLs and order

    @Test func findsPostsByTheirExactIDString() {
        let text = "* Posts\n** 2025-05-01T12:00:00+01:00\n\na\n\n** 2025-05-01T12:00:00+0100\n\nb\n"

        let feed = Feed(parsing: text)

        #expect(feed.post(withID: "2025-05-01T12:00:00+01:00")?.body == "a")
        #expect(feed.post(withID: "2025-05-01T12:00:00+0100")?.body == "b")
        #expect(feed.post(withID: "2025-05-01T11:00:00+0000") == nil)
        #expect(feed.post(withID: " 2025-05-01T12:00:00+0100") == nil)
    }

    @Test func buildsThePostURLAndReference() {
        let post = Feed(parsing: "* Posts\n** 2025-05-01T12:00:00+0100\n\nhi\n").posts[0]

        #expect(post.url(in: "https://a.example/social.org") == "https://a.example/social.org#2025-05-01T12:00:00+0100")
        #expect(
            post.reference(in: "https://a.example/social.org")?.description
                == "https://a.example/social.org#2025-05-01T12:00:00+0100")
        #expect(post.timestamp?.isValid == true)
    }

    @Test func aPostWithoutIDHasNoURL() {
        let post = Feed(parsing: "* Posts\n**\n:PROPERTIES:\n:END:\n\nhi\n").posts[0]

        #expect(post.id == nil)
        #expect(post.timestamp == nil)
        #expect(post.url(in: "https://a.example/social.org") == nil)
        #expect(post.reference(in: "https://a.example/social.org") == nil)
    }

    @Test func sortsPostsByInstantNewestFirstWithUnreadableOnesLast() {
        let text = """
            * Posts
            ** 2025-05-02T00:00:00+0000

            b
            ** not-a-date-1
            :PROPERTIES:
            :ID: garbage
            :END:

            x
            ** 2025-05-03T00:00:00+0000

            c
            ** 2025-05-01T00:00:00+0000

            a
            ** 2025-05-02T12:00:00

            lenient
            """

        let feed = Feed(parsing: text)

        #expect(feed.postsSortedByDate().map(\.body) == ["c", "lenient", "b", "a", "x"])
        #expect(feed.postsSortedByDate(newestFirst: false).map(\.body) == ["a", "b", "lenient", "c", "x"])
        #expect(feed.posts.sortedByDate().map(\.body) == ["c", "lenient", "b", "a", "x"])
    }

    // MARK: - Structure

    @Test(arguments: [
        ("#+TITLE: t\n* Posts\n", LineEnding.lf),
        ("#+TITLE: t\r\n* Posts\r\n", LineEnding.crlf),
        ("#+TITLE: t\r* Posts\r", LineEnding.cr),
        ("#+TITLE: t", LineEnding.lf),
        ("", LineEnding.lf),
    ])
    func detectsTheLineEnding(_ text: String, _ ending: LineEnding) {
        #expect(Feed(parsing: text).lineEnding == ending)
    }

    @Test func lineEndingBytes() {
        #expect(LineEnding.lf.bytes == [0x0A])
        #expect(LineEnding.crlf.bytes == [0x0D, 0x0A])
        #expect(LineEnding.cr.bytes == [0x0D])
    }

    @Test func reportsOtherLevelOneSectionsInFileOrder() {
        let text = "#+TITLE: t\n* Notes\nsomething\n* Posts\n** 2025-05-01T12:00:00+0100\n\nhi\n* Archive\n** old\n"

        let feed = Feed(parsing: text)

        #expect(feed.otherSections.map(\.title) == ["Notes", "Archive"])
        #expect(feed.otherSections.map(\.line) == [2, 8])
        #expect(feed.posts.count == 1)
        #expect(feed.posts[0].body == "hi")
    }

    @Test func readsTheLegacyFixture() throws {
        let feed = try Fixture.feed("legacy.org")

        #expect(feed.profile.title == "Legacy feed")
        #expect(feed.profile.nick == "old_timer")
        #expect(
            feed.posts.map(\.id) == [
                "2025-08-20T10:00:00+0200", "2025-08-21T10:00:00+02:00", "2025-08-22T10:00:00+0200",
            ])
        #expect(feed.posts.map(\.headlineText) == [nil, nil, "My title"])
        #expect(
            feed.posts.map(\.body) == [
                "Written with the drawer ID.", "Trailing space headline.", "Headline with a title.",
            ])
        #expect(feed.posts.map(\.line) == [7, 14, 21])
        #expect(feed.posts[0].language == "en")
        #expect(places(feed.diagnostics) == ["blank-line-after-posts-heading@6:1", "headline-title@21:4"])
    }

    // MARK: - Diagnostics and errors

    @Test func hasErrorsOnlyWhenADiagnosticIsAnError() {
        let warningsOnly = Feed(parsing: "#+TITLE: t\n")
        let withError = Feed(parsing: "* Posts\n** hi\n")

        #expect(codes(warningsOnly.diagnostics) == ["missing-posts-section"])
        #expect(!warningsOnly.hasErrors)
        #expect(places(withError.diagnostics) == ["missing-post-id@2:1", "headline-title@2:4"])
        #expect(withError.hasErrors)
    }

    @Test func describesADiagnosticAsLineColumnSeverityMessageAndCode() throws {
        let diagnostic = Diagnostic(severity: .warning, line: 3, column: 7, code: .emptyPost, message: "Empty.")

        let data = try JSONEncoder().encode(diagnostic)
        let back = try JSONDecoder().decode(Diagnostic.self, from: data)

        #expect(diagnostic.description == "3:7: warning: Empty. [empty-post]")
        #expect(back == diagnostic)
        #expect(String(decoding: try JSONEncoder().encode(DiagnosticCode.emptyPost), as: UTF8.self) == "\"empty-post\"")
        #expect(Diagnostic.Severity.error < .warning)
    }

    @Test func errorsDescribeTheProblemAndTheInput() {
        #expect(OrgSocialError.postNotFound(id: "x").errorDescription?.contains("'x'") == true)
        #expect(
            OrgSocialError.invalidInput(field: "tag", value: "a b", reason: "one word.").errorDescription
                == "Invalid tag 'a b': one word.")
        #expect(
            OrgSocialError.invalidInput(field: "tag", value: "", reason: "empty.").errorDescription
                == "Invalid tag: empty.")
        #expect(
            OrgSocialError.alreadyFollowing(url: "https://a").errorDescription == "This feed already follows https://a."
        )
        #expect(
            OrgSocialError.notInGroup(name: "Emacs").errorDescription
                == "This feed has not joined a group named 'Emacs'.")
    }

    // MARK: - Value types

    @Test func postReferenceSplitsAtTheLastHash() {
        #expect(
            PostReference(parsing: "https://a.example/s.org#2025-01-01T00:00:00+0000")
                == PostReference(feedURL: "https://a.example/s.org", postID: "2025-01-01T00:00:00+0000"))
        #expect(
            PostReference(parsing: "  https://a.example/#x/s.org#ID  ")
                == PostReference(feedURL: "https://a.example/#x/s.org", postID: "ID"))
        #expect(PostReference(parsing: "https://a.example/s.org") == nil)
        #expect(PostReference(parsing: "https://a.example/s.org#") == nil)
        #expect(PostReference(parsing: "#2025-01-01T00:00:00+0000") == nil)
        #expect(PostReference(parsing: "https://a.example/s.org#2025-01-01T00:00:00+0000")?.timestamp.isValid == true)
    }

    @Test func followTakesTheLastTokenAsURL() {
        let follows = Feed(
            parsing: "#+FOLLOW: https://a.example/s.org\n#+FOLLOW:  a  label\twith tabs   https://b.example/s.org \n"
        )
        .profile.follows

        #expect(
            follows == [
                Follow(url: "https://a.example/s.org"),
                Follow(url: "https://b.example/s.org", label: "a  label\twith tabs"),
            ])
        #expect(Follow(url: "https://x", label: "").label == nil)
    }

    @Test func groupReferenceNeedsANameAndARelay() {
        #expect(
            GroupReference(parsing: "Org Mode https://relay.example")
                == GroupReference(name: "Org Mode", relayURL: "https://relay.example"))
        #expect(GroupReference(parsing: "https://relay.example") == nil)
        #expect(GroupReference(parsing: "") == nil)
        #expect(GroupReference(name: "Org  Mode Fans", relayURL: "https://r").slug == "org-mode-fans")
        #expect(GroupReference(name: "Org Mode", relayURL: "https://r").value == "Org Mode https://r")
    }

    @Test func migrationAndBotPayloadReadTheirTokens() {
        #expect(Migration(parsing: "https://a https://b") == Migration(oldURL: "https://a", newURL: "https://b"))
        #expect(Migration(parsing: "https://a") == nil)
        #expect(Migration(parsing: "https://a https://b https://c") == nil)
        #expect(BotPayload(parsing: "chess") == BotPayload(type: "chess", parameters: []))
        #expect(BotPayload(parsing: " chess  e4\te5 ") == BotPayload(type: "chess", parameters: ["e4", "e5"]))
        #expect(BotPayload(parsing: "  ") == nil)
    }

    @Test func visibilityIsCaseSensitive() {
        #expect(Visibility(rawValue: "public") == .public)
        #expect(Visibility(rawValue: "mention") == .mention)
        #expect(Visibility(rawValue: "Mention") == .unknown("Mention"))
        #expect(Visibility(rawValue: "private").rawValue == "private")
        #expect(!Visibility(rawValue: "Mention").isMentionOnly)
    }

    @Test func propertyNamesMatchIgnoringASCIICase() {
        let property = Property(name: "Reply_To", value: "x")

        #expect(property.hasName("REPLY_TO"))
        #expect(property.hasName("reply_to"))
        #expect(!property.hasName("REPLY"))
    }

    // MARK: - JSON

    @Test func encodesTheFeedAsJSONWithDerivedValues() throws {
        let feed = try Fixture.feed("canonical.org")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]

        let json = try #require(try JSONSerialization.jsonObject(with: encoder.encode(feed)) as? [String: Any])
        let profile = try #require(json["profile"] as? [String: Any])
        let posts = try #require(json["posts"] as? [[String: Any]])

        #expect(profile["nick"] as? String == "ana")
        #expect((profile["follows"] as? [Any])?.count == 2)
        #expect(posts.count == 11)
        #expect(posts[0]["id"] as? String == "2025-05-01T12:00:00+0100")
        #expect(posts[0]["instant"] as? String == "2025-05-01T11:00:00Z")
        #expect(posts[0]["validID"] as? Bool == true)
        #expect(posts[0]["tags"] as? [String] == ["garden", "spring"])
        #expect(posts[2]["kind"] as? String == "reaction")
        #expect(posts[4]["kind"] as? String == "quote-boost")
        #expect(posts[5]["pollOptions"] as? [String] == ["Tomatoes", "Peppers"])
        #expect(json["lineEnding"] as? String == "lf")
        #expect(json["hasPostsSection"] as? Bool == true)
    }
}
