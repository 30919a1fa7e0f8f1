import Foundation
import OrgSocial
import Testing

/// `FeedValidator`: every diagnostic code comes from a minimal input at an exact line and column, with
/// its severity; a clean feed gives no diagnostics (spec §9).
struct ValidatorTests {
    /// One minimal input that is clean except for one problem.
    struct Case: Sendable, CustomTestStringConvertible {
        let code: DiagnosticCode
        let bytes: [UInt8]
        let line: Int
        let column: Int
        let severity: Diagnostic.Severity
        var testDescription: String { code.rawValue }

        init(_ code: DiagnosticCode, _ bytes: [UInt8], _ line: Int, _ column: Int, _ severity: Diagnostic.Severity) {
            self.code = code
            self.bytes = bytes
            self.line = line
            self.column = column
            self.severity = severity
        }

        init(_ code: DiagnosticCode, _ text: String, _ line: Int, _ column: Int, _ severity: Diagnostic.Severity) {
            self.init(code, utf8(text), line, column, severity)
        }
    }

    static let header = "#+TITLE: t\n#+NICK: n\n"  // lines 1–2
    static let posts = header + "* Posts\n"  // line 3
    static let id = "2025-05-01T12:00:00+0100"

    /// A post on line 4 whose drawer starts on line 5 and holds `drawer` from line 6, then `body`.
    static func post(_ drawer: String, body: String = "text") -> String {
        posts + "** \(id)\n:PROPERTIES:\n\(drawer)\n:END:\n\n\(body)\n"
    }

    @Test func validatingTellsTheKindOfEveryPostInFileOrder() {
        let text =
            Self.posts
            + "** 2025-05-01T12:00:00+0100\n:PROPERTIES:\n:END:\n\nHello\n"
            + "** 2025-05-01T12:01:00+0100\n:PROPERTIES:\n:REPLY_TO: https://a.example/social.org#2025-01-01T00:00:00+0000\n:END:\n\nHi\n"
            + "**\n"
            + "** 2025-05-01T12:02:00+0100\n:PROPERTIES:\n:INCLUDE: https://a.example/social.org#2025-01-01T00:00:00+0000\n:END:\n"
        let feed = Feed(parsing: text)
        var kinds: [PostKind] = []
        let diagnostics = FeedValidator().validate(feed) { kinds.append($0) }
        #expect(kinds == [.post, .reply, .post, .boost])
        #expect(diagnostics == FeedValidator().validate(feed))
    }

    static let cases: [Case] = [
        // File level (parser)
        Case(.invalidUTF8, utf8(posts + "** \(id)\n\nab") + [0xFF] + utf8("\n"), 6, 3, .error),
        Case(.byteOrderMark, [0xEF, 0xBB, 0xBF] + utf8(posts), 1, 1, .warning),
        Case(.nonLFLineEndings, posts.replacingOccurrences(of: "\n", with: "\r\n"), 1, 1, .warning),
        Case(.missingPostsSection, header, 2, 1, .warning),
        Case(.postsHeadingSpelling, header + "* posts\n", 3, 3, .warning),
        Case(.duplicatePostsSection, posts + "* Posts\n", 4, 1, .warning),
        Case(.strayText, posts + "stray\n", 4, 1, .warning),
        Case(.blankLineAfterPostsHeading, posts + "\n", 4, 1, .warning),
        // Header
        Case(.missingTitle, "#+NICK: n\n* Posts\n", 1, 1, .error),
        Case(.missingNick, "#+TITLE: t\n* Posts\n", 1, 1, .error),
        Case(.nickHasSpaces, "#+TITLE: t\n#+NICK: a b\n* Posts\n", 2, 9, .error),
        Case(.duplicateKeyword, header + "#+TITLE: u\n* Posts\n", 3, 1, .warning),
        Case(.invalidAvatar, header + "#+AVATAR: avatar.png\n* Posts\n", 3, 11, .error),
        Case(.avatarFormat, header + "#+AVATAR: https://a.example/me.gif\n* Posts\n", 3, 11, .warning),
        Case(.invalidLink, header + "#+LINK: example.org\n* Posts\n", 3, 9, .warning),
        Case(.invalidFollow, header + "#+FOLLOW: a.example/social.org\n* Posts\n", 3, 11, .error),
        Case(
            .duplicateFollow,
            header + "#+FOLLOW: https://a.example/s.org\n#+FOLLOW: friend https://a.example/s.org\n* Posts\n", 4, 11,
            .warning),
        Case(.invalidGroup, header + "#+GROUP: https://relay.example\n* Posts\n", 3, 10, .error),
        Case(.invalidContact, header + "#+CONTACT: user@example.org\n* Posts\n", 3, 12, .warning),
        Case(.invalidBirthday, header + "#+BIRTHDAY: 2020-5-14\n* Posts\n", 3, 13, .error),
        Case(.invalidLanguage, header + "#+LANGUAGE: en English\n* Posts\n", 3, 13, .warning),
        Case(.invalidPinned, header + "#+PINNED: yesterday\n* Posts\n", 3, 11, .error),
        Case(.pinnedPostMissing, header + "#+PINNED: \(id)\n* Posts\n", 3, 11, .warning),
        // Posts
        Case(.missingPostID, posts + "**\n\ntext\n", 4, 1, .error),
        Case(.invalidPostID, posts + "** 2025-05-01T12:00:00\n\ntext\n", 4, 4, .error),
        Case(.duplicatePostID, posts + "** \(id)\n\na\n** \(id)\n\nb\n", 7, 1, .error),
        Case(.conflictingPostIDs, post(":ID: 2025-05-01T12:00:00+01:00"), 4, 4, .warning),
        Case(.headlineTextAfterID, posts + "** \(id) Title\n\ntext\n", 4, 29, .warning),
        Case(.headlineTitle, posts + "** Title\n:PROPERTIES:\n:ID: \(id)\n:END:\n\ntext\n", 4, 4, .warning),
        Case(.misplacedDrawer, posts + "** \(id)\n\n:PROPERTIES:\n:END:\n\ntext\n", 6, 1, .warning),
        Case(
            .unclosedDrawer, posts + "** \(id)\n:PROPERTIES:\n:REPLY_TO: https://a.example/s.org#\(id)\n", 5, 1, .error),
        Case(.malformedProperty, post("not a property"), 6, 1, .warning),
        Case(.duplicateProperty, post(":LANG: en\n:LANG: es"), 7, 1, .warning),
        Case(.invalidReplyTo, post(":REPLY_TO: https://a.example/social.org"), 6, 12, .error),
        Case(.invalidInclude, post(":INCLUDE: social.org#\(id)"), 6, 11, .error),
        Case(.invalidPollEnd, post(":POLL_END: next week", body: "- [ ] a"), 6, 12, .error),
        Case(.pollWithoutOptions, post(":POLL_END: 2025-05-08T12:00:00+0100", body: "Q?"), 4, 1, .warning),
        Case(.voteWithoutPoll, post(":POLL_OPTION: A"), 4, 1, .error),
        Case(.invalidLang, post(":LANG: English"), 6, 8, .warning),
        Case(.invalidTags, post(":TAGS: #emacs ok"), 6, 8, .warning),
        Case(.invalidVisibility, post(":VISIBILITY: private"), 6, 14, .warning),
        Case(.invalidMigration, post(":MIGRATION: https://a.example/s.org", body: ""), 6, 13, .error),
        Case(.invalidMention, post(":LANG: en", body: "Hi [[org-social:bob][bob]]"), 4, 1, .warning),
        Case(.emptyPost, posts + "** \(id)\n:PROPERTIES:\n:END:\n", 4, 1, .warning),
    ]

    /// Every code the library defines.
    static let allCodes: [DiagnosticCode] = [
        .invalidUTF8, .byteOrderMark, .nonLFLineEndings, .missingPostsSection, .postsHeadingSpelling,
        .duplicatePostsSection,
        .strayText, .blankLineAfterPostsHeading, .missingTitle, .missingNick, .nickHasSpaces, .duplicateKeyword,
        .invalidAvatar,
        .avatarFormat, .invalidLink, .invalidFollow, .duplicateFollow, .invalidGroup, .invalidContact, .invalidBirthday,
        .invalidLanguage, .invalidPinned, .pinnedPostMissing, .missingPostID, .invalidPostID, .duplicatePostID,
        .conflictingPostIDs, .headlineTextAfterID, .headlineTitle, .misplacedDrawer, .unclosedDrawer,
        .malformedProperty,
        .duplicateProperty, .invalidReplyTo, .invalidInclude, .invalidPollEnd, .pollWithoutOptions, .voteWithoutPoll,
        .invalidLang, .invalidTags, .invalidVisibility, .invalidMigration, .invalidMention, .emptyPost,
    ]

    @Test(arguments: cases)
    func eachCodeComesFromAMinimalInputAtItsPlace(_ testCase: Case) {
        let feed = Feed(bytes: testCase.bytes)

        let diagnostics = FeedValidator().validate(feed)

        #expect(places(diagnostics) == ["\(testCase.code.rawValue)@\(testCase.line):\(testCase.column)"])
        #expect(diagnostics.first?.severity == testCase.severity)
        #expect(diagnostics.first?.message.isEmpty == false)
        #expect(diagnostics.first?.suggestion?.isEmpty == false)
    }

    @Test func everyCodeHasACaseAndCodesAreDistinct() {
        #expect(Set(Self.allCodes.map(\.rawValue)).count == 44)
        #expect(Set(Self.cases.map(\.code)) == Set(Self.allCodes))
    }

    @Test func eachCodeCarriesTheSeverityOfItsDiagnostics() {
        #expect(Set(DiagnosticCode.all) == Set(Self.allCodes))
        for testCase in Self.cases {
            #expect(testCase.code.severity == testCase.severity, "\(testCase.code)")
            #expect(DiagnosticCode(rawValue: testCase.code.rawValue).severity == testCase.severity)
        }
    }

    @Test func aReplyNamesAnHTTPFeedURLAndAPostIDWithoutBlanksInAnyScript() {
        let valid = [
            "https://a.example/s.org#\(Self.id)", "http://a.example/s.org#\(Self.id)\t",
            "HTTPS://a.example/s.org#a#\(Self.id)", "https://ä.example/s.org#\(Self.id)",
            // A timestamp in a spelling real feeds use is still a post ID.
            "https://a.example/s.org#2025-05-01T12:00",
        ]
        // The part after the last `#` is no post ID (not a timestamp): `#notanid`, `#<ID>#x`.
        let notPostIDs = [
            "http://a.example/s.org#x\t", "HTTPS://a.example/s.org#a#b", "https://a.example/s.org#é",
            "https://a.example/s.org#notanid", "https://a.example/s.org#\(Self.id)#x",
        ]
        let invalid = [
            "https://a.example/s.org#", "#x", "a.example/s.org#x", "https://a.example/s.org#a b",
            "https:///s.org#x", "https://ä.example/s.org#a b", "https://a.example/s.org#a\tb", "ä.example/s.org#x",
            "https://ä.example/s.org#",
        ]
        func codes(_ value: String) -> [DiagnosticCode] {
            FeedValidator().validate(Feed(parsing: Self.post(":REPLY_TO: \(value)"))).map(\.code)
        }
        for value in valid { #expect(codes(value) == [], "\(value)") }
        for value in invalid + notPostIDs { #expect(codes(value) == [.invalidReplyTo], "\(value)") }
    }

    @Test func aPostGroupWithoutRelayIsAnInvalidGroup() {
        let feed = Feed(parsing: Self.post(":GROUP: Emacs"))

        #expect(places(FeedValidator().validate(feed)) == ["invalid-group@6:9"])
    }

    // MARK: - Clean feeds

    @Test func aCleanFeedGivesNoDiagnostics() throws {
        #expect(FeedValidator().validate(try Fixture.feed("canonical.org")).isEmpty)
        #expect(FeedValidator().validate(Feed(parsing: Self.post(":LANG: en"))).isEmpty)
    }

    @Test func theValidatorKeepsTheParsersDiagnosticsAndSortsByPlace() {
        let text = "#+NICK: a b\n#+TITLE: t\n* Posts\n\n** hi\n:PROPERTIES:\n:LANG: English\n:END:\n"

        let feed = Feed(parsing: text)
        let all = FeedValidator().validate(feed)

        #expect(
            places(feed.diagnostics) == [
                "blank-line-after-posts-heading@4:1", "missing-post-id@5:1", "headline-title@5:4",
            ])
        #expect(
            places(all) == [
                "nick-has-spaces@1:9", "blank-line-after-posts-heading@4:1", "empty-post@5:1", "missing-post-id@5:1",
                "headline-title@5:4", "invalid-lang@7:8",
            ])
    }

    // MARK: - Messages

    @Test func anInvalidIDSuggestsTheValidSpellingOfTheSameMoment() {
        let feed = Feed(
            parsing: Self.posts
                + "**\n:PROPERTIES:\n:ID: 2025-08-16T15:41:00-5:00\n:END:\n\na\n** 2025-11-02T10:45:00\n\nb\n")

        let suggestions = FeedValidator().validate(feed).filter { $0.code == .invalidPostID }.map(\.suggestion)

        #expect(suggestions.count == 2)
        #expect(suggestions[0]?.contains("`2025-08-16T15:41:00-0500`") == true)
        #expect(suggestions[1]?.contains("`2025-11-02T10:45:00+0000`") == true)
    }

    @Test func aContactWithoutSchemeSuggestsMailto() {
        let feed = Feed(parsing: Self.header + "#+CONTACT: user@example.org\n#+CONTACT: @me:matrix.org\n* Posts\n")

        let suggestions = FeedValidator().validate(feed).map(\.suggestion)

        #expect(
            suggestions == [
                "Write `mailto:user@example.org`.", "Write a URI such as `mailto:…`, `xmpp:…` or `https://…`.",
            ])
    }

    @Test func aNickWithSpacesSuggestsJoiningTheWords() {
        let feed = Feed(parsing: "#+TITLE: t\n#+NICK: Ana  María\n* Posts\n")

        #expect(FeedValidator().validate(feed).first?.suggestion == "Use e.g. `Ana_María`.")
    }

    @Test func wellFormedHeaderValuesPass() {
        let text =
            Self.header + """
                #+AVATAR: https://a.example/me.JPEG?size=128
                #+LINK: gemini://a.example
                #+CONTACT: xmpp:me@a.example
                #+CONTACT: https://mastodon.example/@me
                #+BIRTHDAY: 2000-02-29
                #+LANGUAGE: en pt-br
                #+GROUP: Org Mode https://relay.example
                #+FOLLOW: "quoted label" https://b.example/social.org

                * Posts

                """

        #expect(FeedValidator().validate(Feed(parsing: text)).isEmpty)
    }

    @Test(arguments: ["2021-02-29", "2020-13-01", "20-05-14", "2020-05-14T00:00", "２０２０-05-14"])
    func birthdaysMustBeRealDays(_ value: String) {
        let feed = Feed(parsing: Self.header + "#+BIRTHDAY: \(value)\n* Posts\n")

        #expect(codes(FeedValidator().validate(feed)) == ["invalid-birthday"])
    }
}
