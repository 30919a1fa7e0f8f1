import Foundation
import OrgSocial
import Testing

/// The composers of `PostDraft`: each one's rendered text in the canonical layout (`** <ID>`, the drawer
/// with only non-empty properties in the fixed order, `:END:`, a blank line, the body), and the inputs
/// each one refuses (spec §7 and the writer checklist).
struct ComposerTests {
    static let id = "2025-05-01T12:00:00+0100"
    static let target = PostReference(feedURL: "https://bob.example/social.org", postID: "2025-04-30T09:00:00+0200")
    static let relay = "https://relay.example.org"

    /// Checks that `body` throws `OrgSocialError.invalidInput` for `field`.
    func expectInvalidInput(
        _ field: String, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
    ) {
        do {
            try body()
            Issue.record("expected invalidInput for \(field)", sourceLocation: sourceLocation)
        } catch OrgSocialError.invalidInput(let actual, _, _) {
            #expect(actual == field, sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - Rendering

    @Test func aPostRendersInTheCanonicalLayout() throws {
        let draft = try PostDraft.post("Hello, world!", language: "en", tags: ["#emacs", "org-mode"], mood: " 😊 ")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :LANG: en
                :TAGS: emacs org-mode
                :CLIENT: orgsocial
                :MOOD: 😊
                :END:

                Hello, world!

                """)
    }

    @Test func theClientDefaultsToOrgsocialAndCanBeLeftOut() {
        #expect(PostDraft.defaultClient == "orgsocial")
        #expect(PostDraft().client == "orgsocial")
        #expect(PostDraft(body: "x", client: nil).render(id: Self.id) == "** \(Self.id)\n:PROPERTIES:\n:END:\n\nx\n")
        #expect(PostDraft(body: "x", client: "my-client").render(id: Self.id).contains("\n:CLIENT: my-client\n"))
    }

    @Test func propertiesAreWrittenInTheFixedOrderAndOnlyWhenNotEmpty() {
        var draft = PostDraft(body: "b")
        draft.mood = "🎉"
        draft.extraProperties = [
            Property(name: "url", value: "https://blog.example/p"), Property(name: "EMPTY", value: "  "),
            Property(name: "ID", value: "2020-01-01T00:00:00+0000"),
        ]
        draft.bot = BotPayload(type: "chess", parameters: ["e4"])
        draft.migration = Migration(oldURL: "https://a.example/s.org", newURL: "https://b.example/s.org")
        draft.visibility = .mention
        draft.group = GroupReference(name: "Org Mode", relayURL: Self.relay)
        draft.pollOption = "A"
        draft.pollEnd = "2025-05-08T12:00:00+0100"
        draft.include = Self.target
        draft.replyTo = Self.target
        draft.client = "c"
        draft.tags = ["t1", "t2"]
        draft.language = "es"

        #expect(
            draft.orderedProperties.map { $0.name } == [
                "LANG", "TAGS", "CLIENT", "REPLY_TO", "INCLUDE", "POLL_END", "POLL_OPTION", "GROUP", "VISIBILITY",
                "MIGRATION",
                "BOT", "URL", "MOOD",
            ])
        #expect(
            draft.orderedProperties.map { $0.value } == [
                "es", "t1 t2", "c", Self.target.description, Self.target.description, "2025-05-08T12:00:00+0100", "A",
                "Org Mode https://relay.example.org", "mention", "https://a.example/s.org https://b.example/s.org",
                "chess e4",
                "https://blog.example/p", "🎉",
            ])
        #expect(
            PostDraft.canonicalOrder == [
                "LANG", "TAGS", "CLIENT", "REPLY_TO", "INCLUDE", "POLL_END", "POLL_OPTION", "GROUP", "VISIBILITY",
                "MIGRATION",
                "BOT", "MOOD",
            ])
    }

    @Test func publicVisibilityAndEmptyValuesAreNotWritten() {
        var draft = PostDraft(body: "b")
        draft.visibility = .public
        draft.language = ""
        draft.mood = "  "
        draft.tags = []

        #expect(draft.render(id: Self.id) == "** \(Self.id)\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n\nb\n")
    }

    @Test func bodyLinesThatWouldStartAHeadingAreEscapedWithALeadingSpace() {
        let draft = PostDraft(body: "\r\n\n* section\r\n** post\r\n*** sub\n*\n**\n**\tt\n***\n*bold*\n-* list\n\n\n")

        #expect(draft.escapedBody == " * section\n ** post\n*** sub\n *\n **\n **\tt\n***\n*bold*\n-* list")
        #expect(
            draft.render(id: Self.id).hasSuffix(
                ":END:\n\n * section\n ** post\n*** sub\n *\n **\n **\tt\n***\n*bold*\n-* list\n"))
    }

    @Test func aBodyThatLooksLikeADrawerStaysBody() throws {
        let draft = try PostDraft.post(":PROPERTIES:\n:LANG: xx\n:END:\n:END:\nshown")
        var feed = Feed(parsing: "* Posts\n")

        let post = feed.append(draft, at: instant("2025-06-01T10:00:00+0000"), timeZone: utcZone)

        #expect(post.body == ":PROPERTIES:\n:LANG: xx\n:END:\n:END:\nshown")
        #expect(post.language == nil)
        #expect(post.client == "orgsocial")
        #expect(feed.diagnostics.isEmpty)
    }

    @Test func anEmptyBodyEndsTheRenderingAtEnd() {
        #expect(
            PostDraft(body: "\n  \n").render(id: Self.id) == "** \(Self.id)\n:PROPERTIES:\n:CLIENT: orgsocial\n:END:\n")
    }

    @Test func everyCanonicalFixturePostRendersBackToItsOwnText() throws {
        let feed = try Fixture.feed("canonical.org")

        for post in feed.posts {
            let id = try #require(post.id)
            #expect(PostDraft(post).render(id: id) == post.rawText, "\(id)")
        }
    }

    @Test func aDraftFromAPostKeepsUnknownPropertiesAndLeavesOutTheID() {
        let text =
            "* Posts\n**\n:PROPERTIES:\n:ID: \(Self.id)\n:Url: https://x\n:TAGS:\n:TAGS: a b\n:url: second\n:END:\n\nbody\n"
        let post = Feed(parsing: text).posts[0]

        let draft = PostDraft(post)

        #expect(draft.extraProperties == [Property(name: "Url", value: "https://x")])
        #expect(draft.tags == ["a", "b"])
        #expect(draft.body == "body")
        #expect(draft.client == nil)
        #expect(
            draft.render(id: Self.id) == "** \(Self.id)\n:PROPERTIES:\n:TAGS: a b\n:URL: https://x\n:END:\n\nbody\n")
    }

    // MARK: - Each composer

    @Test func aReplyCarriesTheTargetByteForByte() throws {
        let target = PostReference(feedURL: "https://bob.example/social.org", postID: "2025-04-30T09:00:00+02:00")

        let draft = try PostDraft.reply(to: target, text: "I agree.", mood: "🙂")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :REPLY_TO: https://bob.example/social.org#2025-04-30T09:00:00+02:00
                :MOOD: 🙂
                :END:

                I agree.

                """)
    }

    @Test func aReactionHasAMoodAndNoBody() throws {
        let draft = try PostDraft.reaction(to: Self.target, emoji: " 👍🏽 ")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :REPLY_TO: https://bob.example/social.org#2025-04-30T09:00:00+0200
                :MOOD: 👍🏽
                :END:

                """)
    }

    @Test(arguments: ["👍", "❤", "❤️", "👩‍💻", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "🇪🇸", "👍🏽", "🎉"])
    func reactionsAcceptEmojiSequences(_ emoji: String) throws {
        #expect(try PostDraft.reaction(to: Self.target, emoji: emoji).mood == emoji)
    }

    @Test(arguments: ["", "  ", "ok", "1", "#", "👍👍", "🎉🎉🎉", "👍👍👍👍", "yes 👍"])
    func reactionsRefuseTextThatIsNotOneEmoji(_ text: String) {
        expectInvalidInput("reaction") { _ = try PostDraft.reaction(to: Self.target, emoji: text) }
    }

    @Test func aBoostIncludesThePostWithoutBody() throws {
        let draft = try PostDraft.boost(of: Self.target)

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :INCLUDE: https://bob.example/social.org#2025-04-30T09:00:00+0200
                :END:

                """)
    }

    @Test func aQuoteBoostIncludesThePostWithAComment() throws {
        let draft = try PostDraft.quoteBoost(of: Self.target, text: "Worth reading.", language: "en")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :LANG: en
                :CLIENT: orgsocial
                :INCLUDE: https://bob.example/social.org#2025-04-30T09:00:00+0200
                :END:

                Worth reading.

                """)
    }

    @Test func aPollListsItsOptionsAsCheckboxesAndEndsInItsZone() throws {
        let draft = try PostDraft.poll(
            question: "Tomatoes or peppers?", options: [" Tomatoes ", "Peppers"],
            endsAt: instant("2025-05-08T11:00:00+0000"),
            now: instant("2025-05-01T11:00:00+0000"), timeZone: cetZone, language: "en")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :LANG: en
                :CLIENT: orgsocial
                :POLL_END: 2025-05-08T12:00:00+0100
                :END:

                Tomatoes or peppers?

                - [ ] Tomatoes
                - [ ] Peppers

                """)
    }

    @Test func aVoteRepliesToThePollWithTheOption() throws {
        let draft = try PostDraft.vote(on: Self.target, option: "Tomatoes", text: "Easy choice.")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :REPLY_TO: https://bob.example/social.org#2025-04-30T09:00:00+0200
                :POLL_OPTION: Tomatoes
                :END:

                Easy choice.

                """)
        #expect(
            try PostDraft.vote(on: Self.target, option: "Tomatoes").render(id: Self.id).hasSuffix(
                ":POLL_OPTION: Tomatoes\n:END:\n"))
    }

    @Test func aGroupPostNamesTheGroupAndItsRelay() throws {
        let draft = try PostDraft.groupPost(
            in: GroupReference(name: " Org Mode ", relayURL: Self.relay), text: "Hi group", tags: ["org"])

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :TAGS: org
                :CLIENT: orgsocial
                :GROUP: Org Mode https://relay.example.org
                :END:

                Hi group

                """)
    }

    @Test func aMigrationNamesTheOldAndNewURLWithoutBody() throws {
        let draft = try PostDraft.migration(
            from: "https://old.example/social.org", to: " https://new.example/social.org ")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :MIGRATION: https://old.example/social.org https://new.example/social.org
                :END:

                """)
    }

    @Test func aBotPostCarriesThePayloadAndAHumanBody() throws {
        let draft = try PostDraft.botPost(type: "chess", parameters: ["e4", "e5"], text: "1. e4 e5")

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :BOT: chess e4 e5
                :END:

                1. e4 e5

                """)
    }

    @Test func aMentionOnlyPostIsMarkedAndMustMentionSomeone() throws {
        let text = "Only for " + Mention.link(to: "https://bob.example/social.org", name: "bob")

        let draft = try PostDraft.post(text, visibility: .mention)

        #expect(
            draft.render(id: Self.id) == """
                ** 2025-05-01T12:00:00+0100
                :PROPERTIES:
                :CLIENT: orgsocial
                :VISIBILITY: mention
                :END:

                Only for [[org-social:https://bob.example/social.org][bob]]

                """)
        expectInvalidInput("visibility") { _ = try PostDraft.post("Nobody mentioned", visibility: .mention) }
        expectInvalidInput("visibility") { _ = try PostDraft.post("x", visibility: .unknown("private")) }
    }

    // MARK: - Composed posts in a feed

    static let drafts: [(String, PostKind)] = [
        ("post", .post), ("reply", .reply), ("reaction", .reaction), ("boost", .boost), ("quote-boost", .quoteBoost),
        ("poll", .poll), ("vote", .vote), ("group", .post), ("migration", .migration), ("bot", .bot),
        ("mention", .post),
    ]

    static func makeDraft(_ name: String) throws -> PostDraft {
        switch name {
        case "post": return try .post("Hello", language: "en", tags: ["a"], mood: "😊")
        case "reply": return try .reply(to: target, text: "Yes", mood: "🙂")
        case "reaction": return try .reaction(to: target, emoji: "👍")
        case "boost": return try .boost(of: target)
        case "quote-boost": return try .quoteBoost(of: target, text: "Look")
        case "poll":
            return try .poll(
                question: "Q?", options: ["A", "B"], endsAt: instant("2025-06-08T00:00:00+0000"),
                now: instant("2025-06-01T00:00:00+0000"), timeZone: utcZone)
        case "vote": return try .vote(on: target, option: "A")
        case "group": return try .groupPost(in: GroupReference(name: "Emacs", relayURL: relay), text: "G")
        case "migration": return try .migration(from: "https://a.example/s.org", to: "https://b.example/s.org")
        case "bot": return try .botPost(type: "dice", parameters: ["6"], text: "Rolled 6")
        default:
            return try .post(
                "Hi " + Mention.link(to: "https://bob.example/social.org", name: "bob"), visibility: .mention)
        }
    }

    @Test(arguments: drafts)
    func everyComposedPostParsesBackWithItsKindPropertiesAndBody(_ name: String, _ kind: PostKind) throws {
        let draft = try Self.makeDraft(name)
        var feed = Feed(parsing: "#+TITLE: t\n#+NICK: n\n* Posts\n")

        let post = feed.append(draft, at: instant("2025-06-01T10:00:00+0000"), timeZone: utcZone)

        #expect(post.kind == kind)
        #expect(post.id == "2025-06-01T10:00:00+0000")
        #expect(post.body == draft.escapedBody)
        #expect(post.properties.map(\.name) == draft.orderedProperties.map { $0.name })
        #expect(post.properties.map(\.value) == draft.orderedProperties.map { $0.value })
        #expect(PostDraft(post) == draft)
        #expect(FeedValidator().validate(feed).isEmpty, "\(FeedValidator().validate(feed))")
    }

    // MARK: - Invalid input

    @Test func postsRefuseEmptyTextAndBadLanguagesTagsAndMoods() {
        expectInvalidInput("post text") { _ = try PostDraft.post("") }
        expectInvalidInput("post text") { _ = try PostDraft.post(" \n\t\n") }
        for language in ["English", "EN", "e", "en-", "en-us-x", "e1"] {
            expectInvalidInput("language") { _ = try PostDraft.post("x", language: language) }
        }
        for tag in ["two words", "a.b", "", "#"] {
            expectInvalidInput("tag") { _ = try PostDraft.post("x", tags: [tag]) }
        }
        expectInvalidInput("mood") { _ = try PostDraft.post("x", mood: "a\nb") }
        expectInvalidInput("mood") { _ = try PostDraft.post("x", mood: String(repeating: "a", count: 201)) }
    }

    @Test func aTwoLetterCodeOfNoLanguageIsRefusedAndThreeLetterCodesPass() throws {
        for language in ["zz", "xx", "zz-us", "qq"] {
            expectInvalidInput("language") { _ = try PostDraft.post("x", language: language) }
        }
        for language in ["en", "eo", "sh", "ast", "pt-br"] {
            #expect(try PostDraft.post("x", language: language).language == language)
        }
    }

    @Test func postsAcceptRegionalLanguagesAndUnicodeTags() throws {
        #expect(try PostDraft.post("x", language: "pt-br").language == "pt-br")
        #expect(try PostDraft.post("x", language: "zh-Hant").language == "zh-Hant")
        #expect(try PostDraft.post("x", tags: ["día", "org_mode", "#v2"]).tags == ["día", "org_mode", "v2"])
        #expect(try PostDraft.post("x", mood: "  ").mood == nil)
    }

    @Test func referencesMustBeAbsoluteHTTPURLsWithAnID() {
        let relative = PostReference(feedURL: "social.org", postID: Self.id)
        let spaced = PostReference(feedURL: "https://a.example/s.org", postID: "2025 05")

        expectInvalidInput("reply target feed URL") { _ = try PostDraft.reply(to: relative, text: "x") }
        expectInvalidInput("reply target") { _ = try PostDraft.reply(to: spaced, text: "x") }
        expectInvalidInput("reply text") { _ = try PostDraft.reply(to: Self.target, text: "") }
        expectInvalidInput("reaction target feed URL") { _ = try PostDraft.reaction(to: relative, emoji: "👍") }
        expectInvalidInput("boosted post feed URL") { _ = try PostDraft.boost(of: relative) }
        expectInvalidInput("quoted post feed URL") { _ = try PostDraft.quoteBoost(of: relative, text: "x") }
        expectInvalidInput("quote text") { _ = try PostDraft.quoteBoost(of: Self.target, text: " ") }
        expectInvalidInput("poll feed URL") { _ = try PostDraft.vote(on: relative, option: "A") }
    }

    @Test func pollsNeedAQuestionTwoDistinctOptionsAndAFutureEnd() {
        let now = instant("2025-05-01T00:00:00+0000")
        let later = instant("2025-05-08T00:00:00+0000")

        expectInvalidInput("poll question") {
            _ = try PostDraft.poll(question: "", options: ["A", "B"], endsAt: later, now: now)
        }
        expectInvalidInput("poll options") {
            _ = try PostDraft.poll(question: "Q", options: ["A"], endsAt: later, now: now)
        }
        expectInvalidInput("poll option") {
            _ = try PostDraft.poll(question: "Q", options: ["A", " "], endsAt: later, now: now)
        }
        expectInvalidInput("poll option") {
            _ = try PostDraft.poll(question: "Q", options: ["A", "B\nC"], endsAt: later, now: now)
        }
        expectInvalidInput("poll options") {
            _ = try PostDraft.poll(question: "Q", options: ["A", " A"], endsAt: later, now: now)
        }
        expectInvalidInput("poll end") {
            _ = try PostDraft.poll(question: "Q", options: ["A", "B"], endsAt: now, now: now)
        }
        expectInvalidInput("language") {
            _ = try PostDraft.poll(question: "Q", options: ["A", "B"], endsAt: later, now: now, language: "xx-")
        }
    }

    @Test func composingAndEditingErrorsDescribeTheProblemWithoutCLIAdvice() {
        let now = instant("2025-05-01T00:00:00+0000")
        let later = instant("2025-05-08T00:00:00+0000")
        #expect(
            throws: OrgSocialError.invalidInput(
                field: "poll options", value: "", reason: "a poll needs at least two options.")
        ) {
            _ = try PostDraft.poll(question: "Q", options: ["A"], endsAt: later, now: now)
        }
        #expect(
            OrgSocialError.postNotFound(id: "nope").localizedDescription
                == "No post with the ID 'nope' in this feed. IDs are compared exactly as written.")
    }

    @Test func votesNeedAnOptionOfTheOpenPoll() throws {
        let poll = Feed(
            parsing:
                "* Posts\n** \(Self.id)\n:PROPERTIES:\n:POLL_END: 2025-05-08T12:00:00+0100\n:END:\n\nQ?\n- [ ] A\n- [ ] B\n"
        )
        .posts[0]
        let open = instant("2025-05-02T00:00:00+0000")
        let closed = instant("2025-05-08T11:00:00+0000")

        expectInvalidInput("poll option") { _ = try PostDraft.vote(on: Self.target, option: " ") }
        expectInvalidInput("poll option") { _ = try PostDraft.vote(on: Self.target, option: "A\nB") }
        expectInvalidInput("poll option") {
            _ = try PostDraft.vote(on: Self.target, option: "C", pollPost: poll, now: open)
        }
        expectInvalidInput("vote") { _ = try PostDraft.vote(on: Self.target, option: "A", pollPost: poll, now: closed) }
        #expect(try PostDraft.vote(on: Self.target, option: "B", pollPost: poll, now: open).pollOption == "B")
    }

    @Test func groupMigrationAndBotPostsCheckTheirParts() {
        expectInvalidInput("group name") {
            _ = try PostDraft.groupPost(in: GroupReference(name: " ", relayURL: Self.relay), text: "x")
        }
        expectInvalidInput("group relay URL") {
            _ = try PostDraft.groupPost(in: GroupReference(name: "Emacs", relayURL: "relay.example.org"), text: "x")
        }
        expectInvalidInput("group post text") {
            _ = try PostDraft.groupPost(in: GroupReference(name: "E", relayURL: Self.relay), text: "")
        }
        expectInvalidInput("old feed URL") {
            _ = try PostDraft.migration(from: "old.example/s.org", to: "https://b.example/s.org")
        }
        expectInvalidInput("new feed URL") {
            _ = try PostDraft.migration(from: "https://a.example/s.org", to: "mailto:x@y")
        }
        expectInvalidInput("new feed URL") {
            _ = try PostDraft.migration(from: "https://a.example/s.org", to: "https://a.example/s.org")
        }
        expectInvalidInput("bot type") { _ = try PostDraft.botPost(type: "two words", parameters: [], text: "x") }
        expectInvalidInput("bot type") { _ = try PostDraft.botPost(type: " ", parameters: [], text: "x") }
        expectInvalidInput("bot parameter") {
            _ = try PostDraft.botPost(type: "chess", parameters: ["e4 e5"], text: "x")
        }
        expectInvalidInput("bot parameter") { _ = try PostDraft.botPost(type: "chess", parameters: [""], text: "x") }
        expectInvalidInput("bot post text") { _ = try PostDraft.botPost(type: "chess", parameters: ["e4"], text: "") }
    }
}
