import Foundation
import OrgSocial
import TestSupport
import Testing

/// The 15 real feeds of `../shared/corpus/feeds` (spec §14): byte-identical round trip, the exact posts and
/// IDs each holds, its profile, and values derived from its posts. The expected values were read from the
/// files themselves. The tests are skipped only when that folder is absent (it lives outside the repository).
struct CorpusTests {
    /// `<package root>/../shared/corpus/feeds`.
    static let folderPath = SharedCorpus.feedsPath

    static let folder: URL? = SharedCorpus.feeds

    static func load(_ name: String) throws -> [UInt8] {
        let folder = try #require(folder)
        return Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    static func feed(_ name: String) throws -> Feed { Feed(bytes: try load(name)) }

    static let names = [
        "DSMSSTHN_DSMSSTHN.github.io.org", "Nebucatnetzer_org-posts.org", "alan-w-255_org-social.org",
        "amake_orgro-app-landing-page.org", "cherryramatisdev_website.org", "davemq_davemq.github.io.org",
        "fengbainuo_org-social.org", "nailuoGG_social-network.org", "p-snow_p-snow.github.io.org",
        "ragamuffinjim_ragamuffinjim.github.io.org", "son0p_folletos.org", "sympodius_haiverin.scot.org",
        "tanrax_org-social-relay.org", "teotenn_teoten.com.org", "thornjad_jmthornton.org",
    ]

    // MARK: - The folder

    @Test func theCorpusTestsRunExactlyWhenTheFolderExists() throws {
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: Self.folderPath, isDirectory: &isDirectory)

        #expect((Self.folder != nil) == exists)
        if exists {
            #expect(isDirectory.boolValue)
            let found = try FileManager.default.contentsOfDirectory(atPath: Self.folderPath).filter {
                $0.hasSuffix(".org")
            }
            #expect(found.sorted() == Self.names)
        }
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func everyRealFeedRoundTripsByteForByte() throws {
        for name in Self.names {
            let bytes = try Self.load(name)

            let feed = Feed(bytes: bytes)
            let again = Feed(bytes: feed.serialized())

            #expect(feed.serialized() == bytes, "\(name)")
            #expect(again.posts == feed.posts, "\(name)")
            #expect(again.profile.keywords == feed.profile.keywords, "\(name)")
            #expect(!feed.hasByteOrderMark && feed.lineEnding == .lf, "\(name)")
        }
    }

    // MARK: - Per-file expectations

    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var title: String
        var nick: String
        var ids: [String]
        var follows: Int
        var labelledFollows: Int
        var groups: [String]
        var kinds: [PostKind: Int]
        var mentions: Int
        var diagnostics: [String]
        var testDescription: String { file }
    }

    static let expectations: [Expectation] = [
        Expectation(
            file: "DSMSSTHN_DSMSSTHN.github.io.org", title: "smsthn", nick: "smsthn", ids: [], follows: 35,
            labelledFollows: 0,
            groups: [], kinds: [:], mentions: 0, diagnostics: ["invalid-follow@37:12"]),
        Expectation(
            file: "Nebucatnetzer_org-posts.org", title: "Nebucatnetzer's Org Social Posts", nick: "Nebucatnetzer",
            ids: [
                "2025-10-26T16:03:49+0100", "2025-10-27T21:30:44+0100", "2025-10-28T21:22:11+0100",
                "2025-10-28T21:22:45+0100",
                "2025-10-28T21:27:37+0100", "2025-10-28T22:44:57+0100", "2025-10-28T22:47:58+0100",
                "2025-10-31T20:04:14+0100",
                "2025-10-31T20:18:53+0100", "2025-11-01T14:31:21+0100", "2025-11-03T22:23:49+0100",
                "2025-11-03T22:32:32+0100",
            ],
            follows: 37, labelledFollows: 0, groups: ["Emacs", "Org Mode"],
            kinds: [.post: 1, .reply: 9, .reaction: 1, .vote: 1],
            mentions: 0, diagnostics: []),
        Expectation(
            file: "alan-w-255_org-social.org", title: "alan's journal", nick: "alan", ids: ["2025-10-28T13:58:23+0800"],
            follows: 21, labelledFollows: 13, groups: ["Emacs", "Org Social", "Org Mode", "Elisp", "Random"],
            kinds: [.post: 1],
            mentions: 0, diagnostics: ["blank-line-after-posts-heading@32:1", "headline-title@33:4"]),
        Expectation(
            file: "amake_orgro-app-landing-page.org", title: "Orgro.social", nick: "Orgro",
            ids: ["2026-03-09T23:22:30+0900"],
            follows: 0, labelledFollows: 0, groups: [], kinds: [.post: 1], mentions: 0,
            diagnostics: ["invalid-birthday@7:13", "blank-line-after-posts-heading@15:1"]),
        Expectation(
            file: "cherryramatisdev_website.org", title: "Cherry's Journal", nick: "cherry",
            ids: [
                "2025-08-30T10:50:00+0100", "2025-08-31T19:13:23-0300", "2025-08-31T19:24:39-0300",
                "2025-08-31T21:20:17-0300",
                "2025-09-01T19:32:07-0300", "2025-09-02T23:02:00-0300", "2025-09-02T23:32:52-0300",
                "2025-09-03T00:33:01-0300",
                "2025-09-03T13:04:37-0300", "2025-09-03T14:30:21-0300", "2025-09-03T18:36:43-0300",
                "2025-09-06T14:45:07-0300",
                "2025-09-20T12:55:56-0300",
            ],
            follows: 10, labelledFollows: 10, groups: [], kinds: [.post: 6, .reply: 6, .vote: 1], mentions: 0,
            diagnostics: ["headline-title@20:4"]),
        Expectation(
            file: "davemq_davemq.github.io.org", title: "Dave's journal on Org Social", nick: "davemq",
            ids: ["2025-12-18T11:29:32-0600"], follows: 1, labelledFollows: 0, groups: [], kinds: [.post: 1],
            mentions: 0,
            diagnostics: ["avatar-format@4:11"]),
        Expectation(
            file: "fengbainuo_org-social.org", title: "Qrvhh's page", nick: "Qrvhh",
            ids: [
                "2025-09-25T15:14:00+02:00", "2025-09-25T15:23:30+0200", "2025-10-01T16:21:57+0200",
                "2025-10-08T14:04:25+0200",
                "2025-10-15T08:49:53+0200", "2025-10-15T09:56:26+0200", "2025-10-15T10:25:11+0200",
                "2025-10-17T12:55:12+0200",
                "2025-10-17T13:19:01+0200", "2025-12-21T09:30:44+0100", "2026-01-31T23:13:53+0100",
            ],
            follows: 1, labelledFollows: 0, groups: [], kinds: [.post: 6, .reply: 5], mentions: 0, diagnostics: []),
        Expectation(
            file: "nailuoGG_social-network.org", title: "Le's Journal", nick: "Le", ids: ["2025-10-17T12:28:38+0800"],
            follows: 1,
            labelledFollows: 0, groups: ["Org Social"], kinds: [.post: 1], mentions: 0,
            diagnostics: ["avatar-format@4:11", "headline-title@10:4"]),
        Expectation(
            file: "p-snow_p-snow.github.io.org", title: "p-snow @ Org Social", nick: "p-snow",
            ids: ["2025-11-26T17:38:10+0900"],
            follows: 0, labelledFollows: 0, groups: [], kinds: [.post: 1], mentions: 0,
            diagnostics: ["headline-title@7:4"]),
        Expectation(
            file: "ragamuffinjim_ragamuffinjim.github.io.org", title: "ragamuffinjim's org-social",
            nick: "ragamuffinjim",
            ids: ["2025-08-16T15:41:00-5:00", "2025-08-16T14:26:00-5:00"], follows: 7, labelledFollows: 7, groups: [],
            kinds: [.post: 2], mentions: 0,
            diagnostics: ["invalid-contact@7:12", "invalid-post-id@20:6", "invalid-post-id@29:6"]),
        Expectation(
            file: "son0p_folletos.org", title: "son0p", nick: "son0p",
            ids: ["2025-11-02T16:26:32-0500", "2025-12-14T07:18:21-0500"],
            follows: 41, labelledFollows: 0, groups: [], kinds: [.post: 2], mentions: 0,
            diagnostics: [
                "headline-title@48:4", "misplaced-drawer@60:1", "invalid-tags@62:8", "headline-title@67:4",
                "misplaced-drawer@96:1",
                "invalid-tags@98:8",
            ]),
        Expectation(
            file: "sympodius_haiverin.scot.org", title: "John's journal at haiverin.scot", nick: "sympodius",
            ids: [
                "2025-10-06T13:46:34+0100", "2025-10-06T13:52:13+0100", "2025-10-06T13:56:25+0100",
                "2025-10-06T14:01:32+0100",
                "2025-10-13T13:14:42+0100", "2025-10-13T13:18:37+0100", "2025-10-13T14:40:43+0100",
                "2025-10-16T11:56:48+0100",
                "2025-11-02T10:45:00",
            ],
            follows: 24, labelledFollows: 24, groups: [], kinds: [.post: 5, .reply: 4], mentions: 3,
            diagnostics: [
                "invalid-contact@11:12", "blank-line-after-posts-heading@39:1", "invalid-tags@44:8",
                "invalid-tags@59:8",
                "invalid-tags@74:8", "invalid-tags@87:8", "invalid-post-id@154:6", "invalid-tags@156:8",
            ]),
        Expectation(
            file: "tanrax_org-social-relay.org", title: "Terron's Daily Adventures", nick: "terron_cat",
            ids: [
                "2025-01-15T06:30:00+0100", "2025-01-16T11:22:00+0100", "2025-01-17T14:45:00+0100",
                "2025-01-18T09:10:00+0100",
                "2025-01-19T16:30:00+0100", "2025-01-20T12:15:00+0100", "2025-01-21T08:00:00+0100",
                "2025-01-22T17:45:00+0100",
                "2025-01-23T11:20:00+0100", "2025-01-24T13:30:00+0100", "2025-01-25T15:00:00+0100",
                "2025-01-26T10:15:00+0100",
                "2025-01-27T18:30:00+0100", "2025-01-28T07:00:00+0100", "2025-01-29T19:45:00+0100",
                "2025-01-30T12:20:00+0100",
                "2025-01-31T20:00:00+0100",
            ],
            follows: 3, labelledFollows: 1, groups: [], kinds: [.post: 14, .poll: 1, .reply: 1, .vote: 1], mentions: 2,
            diagnostics: []),
        Expectation(
            file: "teotenn_teoten.com.org", title: "Teoten", nick: "teoten",
            ids: [
                "2025-10-11T15:54:00+0200", "2025-10-11T16:29:40+0200", "2025-10-12T06:24:45+0200",
                "2025-10-12T06:47:14+0200",
                "2025-10-12T13:34:48+0200", "2025-10-15T15:04:16+0200", "2025-10-15T15:15:02+0200",
                "2025-10-17T06:32:10+0200",
                "2025-10-18T05:31:54+0200", "2025-10-19T05:01:43+0200", "2025-10-22T02:56:00+0200",
            ],
            follows: 19, labelledFollows: 0, groups: ["Emacs", "Org Social", "Org Mode", "Elisp", "Random"],
            kinds: [.post: 3, .reaction: 1, .reply: 7], mentions: 1, diagnostics: []),
        Expectation(
            file: "thornjad_jmthornton.org", title: "Jade Michael Thornton's journal", nick: "thornjad",
            ids: [
                "2016-03-28T12:00:00-0500", "2016-10-26T12:00:00-0500", "2016-11-19T12:00:00-0600",
                "2016-12-14T12:00:00-0600",
                "2017-02-09T12:00:00-0600", "2017-02-27T12:00:00-0600", "2017-09-27T12:00:00-0500",
                "2017-09-29T12:00:00-0500",
                "2017-10-13T12:00:00-0500", "2018-02-04T12:00:00-0600", "2018-05-08T12:00:00-0500",
                "2019-01-20T12:00:00-0600",
                "2019-11-23T12:00:00-0600", "2020-04-10T12:00:00-0500", "2020-05-03T12:00:00-0500",
                "2020-08-10T12:00:00-0500",
                "2020-08-15T12:00:00-0500", "2020-10-12T12:00:00-0500", "2020-11-01T12:00:00-0600",
                "2021-04-18T12:00:00-0500",
                "2022-04-21T12:00:00-0500", "2023-05-07T12:00:00-0500", "2023-06-01T12:00:00-0500",
                "2023-11-11T12:00:00-0600",
                "2024-01-17T12:00:00-0600", "2024-03-18T12:00:00-0500", "2025-05-11T12:00:00-0500",
                "2025-06-04T12:00:00-0500",
                "2026-02-19T12:00:00-0600", "2026-02-25T12:00:00-0600", "2026-03-29T12:00:00-0500",
                "2026-04-07T12:00:00-0500",
                "2026-06-04T12:00:00-0500", "2026-06-04T12:01:00-0500", "2026-06-04T12:02:00-0500",
                "2026-08-08T12:00:00-0500",
                "2026-08-09T13:20:00-0500", "2026-08-15T12:00:00-0500",
            ],
            follows: 0, labelledFollows: 0, groups: [], kinds: [.post: 38], mentions: 0, diagnostics: []),
    ]

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"), arguments: expectations)
    func eachRealFeedHasItsKnownProfileAndPosts(_ expected: Expectation) throws {
        let feed = try Self.feed(expected.file)

        #expect(feed.hasPostsSection)
        #expect(feed.posts.count == expected.ids.count)
        #expect(feed.posts.map(\.id) == expected.ids.map { Optional($0) })
        #expect(feed.profile.title == expected.title)
        #expect(feed.profile.nick == expected.nick)
        #expect(feed.profile.follows.count == expected.follows)
        #expect(feed.profile.follows.filter { $0.label != nil }.count == expected.labelledFollows)
        #expect(feed.profile.groups.map(\.name) == expected.groups)
        #expect(Dictionary(feed.posts.map { ($0.kind, 1) }, uniquingKeysWith: +) == expected.kinds)
        #expect(feed.posts.reduce(0) { $0 + $1.mentions.count } == expected.mentions)
        #expect(places(FeedValidator().validate(feed)) == expected.diagnostics)
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func appendingToEveryRealFeedOnlyInsertsBytes() throws {
        for name in Self.names {
            let old = try Self.load(name)
            var feed = Feed(bytes: old)

            let post = feed.append(
                try PostDraft.post("Appended"), at: instant("2030-01-01T00:00:00+0000"), timeZone: utcZone)

            let new = feed.bytes
            let prefix = zip(old, new).prefix { $0 == $1 }.count
            let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
            #expect(prefix + min(suffix, old.count) >= old.count, "\(name)")
            #expect(post.id == "2030-01-01T00:00:00+0000", "\(name)")
            #expect(feed.posts.dropLast().map(\.id) == Feed(bytes: old).posts.map(\.id), "\(name)")
            #expect(feed.posts.last?.body == "Appended", "\(name)")
        }
    }

    // MARK: - What each file is interesting for (spec §14)

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func dsmssthnFollowsOnlyAndItsLastURLHasAStrayQuote() throws {
        let feed = try Self.feed("DSMSSTHN_DSMSSTHN.github.io.org")

        #expect(feed.posts.isEmpty)
        #expect(feed.profile.follows.first == Follow(url: "https://andros.dev/static/social.org"))
        #expect(feed.profile.follows.last?.url == "https://rosaelefanten.org/social.org\"")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func nebucatnetzerHasKeywordsInAPreambleAndIDsInHeadlineAndDrawer() throws {
        let feed = try Self.feed("Nebucatnetzer_org-posts.org")

        #expect(feed.profile.keywords.first { $0.hasName("NICK") }?.line == 3)
        #expect(feed.profile.avatar == "https://zweili.ch/org-social/avatar.png")
        #expect(feed.posts.allSatisfy { post in post.properties.contains { $0.hasName("ID") && $0.value == post.id } })
        #expect(feed.posts[6].kind == .reaction)
        #expect(feed.posts[6].mood == "👋")
        #expect(feed.posts[9].pollOption == "Continue improving org-social.el")
        #expect(feed.posts[9].replyTo?.description == "https://andros.dev/static/social.org#2025-11-01T11:12:51+0100")
        #expect(feed.posts[4].body.hasPrefix("#+begin_quote\nLooks interesting."))
        #expect(feed.posts[1].tags == ["selfhosted", "raspberry-pi"])
        #expect(feed.posts[0].mood == nil)
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func alanMixesLabelledAndBareFollowsAndHasATitleHeadline() throws {
        let feed = try Self.feed("alan-w-255_org-social.org")

        #expect(feed.profile.follows.first == Follow(url: "https://andros.dev/static/social.org", label: "andros"))
        #expect(feed.profile.follows.last == Follow(url: "https://planet-emacs.org-social.org/"))
        #expect(feed.posts[0].headlineText == "hi")
        #expect(feed.posts[0].body == "hello org social")
        #expect(feed.profile.groups.first?.relayURL == "https://org-social-relay.andros.dev")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func amakeHasItsIDOnlyInTheHeadlineAndCommentsAmongKeywords() throws {
        let feed = try Self.feed("amake_orgro-app-landing-page.org")
        let post = feed.posts[0]

        #expect(!post.properties.contains { $0.hasName("ID") })
        #expect(post.mood == "🚀")
        #expect(post.tags == ["announcement"])
        #expect(feed.profile.languages == ["en", "ja"])
        #expect(feed.profile.location == "On your mobile device")
        #expect(feed.profile.birthday == "2020-5-14")
        #expect(feed.profile.contacts == ["mailto:support@orgro.org"])
        #expect(feed.profile.keywords.count == 9)
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func cherryHasATitleHeadlineAVoteWithoutBodyAndNoBlankLinesBeforePosts() throws {
        let feed = try Self.feed("cherryramatisdev_website.org")

        #expect(feed.posts[0].headlineText == "First post")
        #expect(feed.posts[0].body == "This is my first post on Org Social.")
        #expect(feed.posts[8].kind == .vote)
        #expect(feed.posts[8].pollOption == "Yes")
        #expect(feed.posts[8].hasEmptyBody)
        #expect(feed.posts[5].kind == .reply)
        #expect(feed.posts[5].mood == "✨")
        #expect(feed.posts[3].replyTo?.postID == "2025-09-01T00:33:48+02:00")
        #expect(feed.posts[12].client == "org-social.nvim")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func davemqHasAHardWrappedBodyAndAGravatarAvatar() throws {
        let feed = try Self.feed("davemq_davemq.github.io.org")

        #expect(feed.profile.avatar?.hasPrefix("https://www.gravatar.com/avatar/") == true)
        #expect(feed.posts[0].headlineText == nil)
        #expect(
            feed.posts[0].body.hasPrefix(
                "I'm trying to get Org Social set up, finally.\n\nThe AVATAR validator doesn't"))
        #expect(feed.posts[0].body.hasSuffix("everything /except/ the AVATAR."))
        #expect(feed.posts[0].body.split(separator: "\n", omittingEmptySubsequences: false).count == 13)
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func fengbainuoMixesOffsetSpellingsAndHasWordMoods() throws {
        let feed = try Self.feed("fengbainuo_org-social.org")

        #expect(feed.posts[0].timestamp?.isValid == true)
        #expect(feed.posts[1].timestamp?.isValid == true)
        #expect(feed.posts.map { $0.mood } == [nil, nil, "curious", "happy", nil, nil, nil, nil, "🎮", "🏠", nil])
        #expect(feed.posts[1].language == nil)
        #expect(feed.posts[1].tags == [])
        #expect(feed.posts[8].tags == ["games", "pso", "ps0"])
        #expect(feed.posts[3].kind == .reply)
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func nailuoGGTrimsValuesAndPostsInAGroup() throws {
        let feed = try Self.feed("nailuoGG_social-network.org")
        let post = feed.posts[0]

        #expect(feed.profile.description == nil)
        #expect(post.headlineText == "Hello, World")
        #expect(post.language == "en")
        #expect(post.mood == "😊")
        #expect(post.group == GroupReference(name: "Org Social", relayURL: "https://org-social-relay.andros.dev"))
        #expect(post.body.hasPrefix("Hello world! I just configured org-social"))
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func pSnowHasACJKBodyAndValuelessProperties() throws {
        let post = try Self.feed("p-snow_p-snow.github.io.org").posts[0]

        #expect(post.headlineText == "Initail post")
        #expect(post.body.hasPrefix("日本からこんにちは\n\nThis is my initial org-social post from Japan."))
        #expect(post.tags == [])
        #expect(post.mood == nil)
        #expect(post.client == "org-social.el")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func ragamuffinjimHasInvalidIDsNewestFirst() throws {
        let feed = try Self.feed("ragamuffinjim_ragamuffinjim.github.io.org")

        #expect(feed.posts.allSatisfy { $0.instant == nil })
        #expect(feed.posts[0].timestamp?.lenientInstant == instant("2025-08-16T20:41:00+0000"))
        #expect(
            feed.postsSortedByDate(newestFirst: false).map(\.id) == [
                "2025-08-16T14:26:00-5:00", "2025-08-16T15:41:00-5:00",
            ])
        #expect(feed.profile.avatar == nil)
        #expect(feed.profile.contacts.count == 3)
        #expect(feed.posts[1].body.hasPrefix("Hello [[https://github.com/tanrax/org-social][Org-social.]]"))
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func son0pHasItsDrawersAfterTheBodies() throws {
        let feed = try Self.feed("son0p_folletos.org")

        #expect(feed.posts[0].headlineText?.hasPrefix("Función en elisp para consultar") == true)
        #expect(feed.posts[1].headlineText == "Escuchar scripts de ChucK con EMMS (en Guix+Pipewire)")
        #expect(feed.posts[0].tags == ["elisp", "ledger-cli", "emacs", "plaintextaccounting"])
        #expect(feed.posts[0].body.hasPrefix("#+BEGIN_SRC elisp :results none\n(defun insertar-cuenta ()"))
        #expect(feed.posts[0].body.hasSuffix("(insert cuenta)))\n#+END_SRC"))
        #expect(feed.posts[1].body.hasPrefix("Al integrar ChucK con EMMS"))
        #expect(feed.posts[1].client == "org-social.el")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func sympodiusHasMultiWordFollowLabelsAndAnIDWithoutOffset() throws {
        let feed = try Self.feed("sympodius_haiverin.scot.org")
        let follows = feed.profile.follows

        #expect(
            follows[1]
                == Follow(
                    url: "https://www.alessandroliguori.it/social.org",
                    label: "alephoto85's \"The house with laughing windows\""))
        #expect(
            follows[2]
                == Follow(url: "https://andros.dev/static/social.org", label: "Andros' journal (Creator of Org Social)")
        )
        #expect(follows.allSatisfy { $0.url.hasPrefix("http") })
        #expect(feed.profile.description?.contains("🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scottish") == true)
        #expect(feed.posts[8].timestamp?.isValid == false)
        #expect(feed.posts[8].timestamp?.lenientInstant == instant("2025-11-02T10:45:00+0000"))
        #expect(feed.posts[4].mentions == [Mention(feedURL: "https://andros.dev/static/social.org", name: "andros")])
        #expect(feed.posts[6].mentions == [Mention(feedURL: "https://emillo.net/social.org", name: "emillo")])
        #expect(feed.posts[0].mood == "💰")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func tanraxHasAPollAVoteARepliesAndMentions() throws {
        let feed = try Self.feed("tanrax_org-social-relay.org")

        #expect(feed.posts[4].kind == .poll)
        #expect(feed.posts[4].pollEnd?.raw == "2025-01-26T16:30:00+0100")
        #expect(
            feed.posts[4].pollOptions == [
                "Tuna (classic choice)", "Salmon (fancy option)", "Sardines (exotic taste)", "Whatever human is eating",
            ])
        #expect(feed.posts[5].kind == .reply)
        #expect(feed.posts[5].mood == "😹")
        #expect(feed.posts[8].kind == .vote)
        #expect(feed.posts[8].pollOption == "Tuna (classic choice)")
        #expect(feed.posts[9].mood == "🏃‍♂️")
        #expect(feed.posts[12].language == "es")
        #expect(feed.posts[15].mentions.map(\.name) == ["mittens", "shadow"])
        #expect(feed.profile.links == ["https://terron-cat.meow", "https://instagram.com/terron_the_orange"])
        #expect(
            feed.profile.follows.first
                == Follow(url: "https://whiskers.example.com/social.org", label: "whiskers_tabby"))
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func teotennHasAReactionRepliesAndSourceBlocks() throws {
        let feed = try Self.feed("teotenn_teoten.com.org")

        #expect(feed.posts[3].kind == .reaction)
        #expect(feed.posts[3].mood == "👋")
        #expect(feed.posts[3].replyTo?.description == "https://andros.dev/static/social.org#2025-10-11T17:14:24+0200")
        #expect(feed.posts[2].body.contains("#+begin_src emacs-lisp\n(use-package org-social"))
        #expect(feed.posts[2].body.hasSuffix("#+end_src"))
        #expect(feed.posts[6].mentions == [Mention(feedURL: "https://andros.dev/static/social.org", name: "andros")])
        #expect(feed.posts[0].body == "First post on Org Social!")
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func thornjadHasHeadlineIDsURLPropertiesAndABannerOfComments() throws {
        let feed = try Self.feed("thornjad_jmthornton.org")

        #expect(feed.profile.keywords.map(\.name) == ["TITLE", "NICK", "DESCRIPTION", "LINK", "LANGUAGE"])
        #expect(feed.posts.allSatisfy { post in !post.properties.contains { $0.hasName("ID") } })
        #expect(feed.posts.filter { $0.value(of: "URL") != nil }.count == 37)
        #expect(feed.posts[0].value(of: "URL") == "https://jmthornton.net/blog/p/switch-caps-esc")
        #expect(feed.posts[36].properties.isEmpty)
        #expect(feed.posts[36].body == "Hello, org-social. First post from jmthornton.net. I love this idea.")
        #expect(feed.postsSortedByDate().first?.id == "2026-08-15T12:00:00-0500")
    }
}
