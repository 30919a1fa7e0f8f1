import Foundation
import OrgSocial
import TestSupport
import Testing

/// Property-based tests: 300 random feeds from a seeded generator mixing every construct the parser
/// must survive. For each feed: (1) serializing gives back the input bytes, (2) re-parsing gives an equal
/// model, (3) the model is what the generator wrote, (4) appending a composed post leaves the original
/// bytes around the insertion and the new post parses back as composed.
struct PropertyTests {
    static let feedCount = 300
    static let seed: UInt64 = 0x05EE_D0F0_0D5E_ED01

    @Test func randomFeedsRoundTripParseAsWrittenAndAcceptAppends() throws {
        var rng = SplitMix64(seed: Self.seed)
        var postsSeen = 0
        var crlfSeen = 0
        for index in 0..<Self.feedCount {
            var generator = FeedGenerator(rng: SplitMix64(seed: rng.next()))
            let generated = generator.make()
            postsSeen += generated.posts.count
            if generated.lineBreak == "\r\n" { crlfSeen += 1 }
            try check(generated, index: index, draftChoice: rng.int(5))
        }
        // The generator really produced a mix (guards against a generator that degenerates silently).
        #expect(postsSeen > Self.feedCount)
        #expect(crlfSeen > 20)
    }

    @Test func theGeneratorIsDeterministic() {
        var a = FeedGenerator(rng: SplitMix64(seed: 42))
        var b = FeedGenerator(rng: SplitMix64(seed: 42))

        #expect(a.make().bytes == b.make().bytes)
    }

    private func check(_ generated: GeneratedFeed, index: Int, draftChoice: Int) throws {
        let label = Comment(rawValue: "feed #\(index):\n\(decoded(generated.bytes).debugDescription)")
        let feed = Feed(bytes: generated.bytes)

        // (1) Lossless.
        #expect(feed.serialized() == generated.bytes, label)

        // (2) Parse → serialize → parse gives an equal model.
        let again = Feed(bytes: feed.serialized())
        #expect(again.posts == feed.posts, label)
        #expect(again.profile.keywords == feed.profile.keywords, label)
        #expect(again.diagnostics == feed.diagnostics, label)

        // (3) The model is what the generator wrote.
        #expect(feed.hasPostsSection == generated.hasPostsSection, label)
        #expect(feed.hasByteOrderMark == generated.hasBOM, label)
        #expect(
            feed.profile.keywords.map { "\($0.name)=\($0.value)" }
                == generated.keywords.map { "\($0.name)=\($0.value)" }, label)
        #expect(feed.otherSections.map(\.title) == generated.otherSections, label)
        #expect(feed.posts.map(\.id) == generated.posts.map(\.id), label)
        #expect(feed.posts.map(\.body) == generated.posts.map(\.body), label)
        #expect(feed.posts.map(\.headlineText) == generated.posts.map(\.headlineText), label)
        for (post, expected) in zip(feed.posts, generated.posts) {
            #expect(
                post.properties.map { "\($0.name)=\($0.value)" }
                    == expected.properties.map { "\($0.name)=\($0.value)" }, label)
            for name in Set(expected.properties.map { $0.name.uppercased() }) {
                let first = expected.properties.first { $0.name.uppercased() == name && !$0.value.isEmpty }?.value
                #expect(post.value(of: name) == first, label)
            }
        }
        if let title = generated.keywords.first(where: { $0.name.uppercased() == "TITLE" && !$0.value.isEmpty })?.value
        {
            #expect(feed.profile.title == title, label)
        } else {
            #expect(feed.profile.title == nil, label)
        }

        // (4) Appending a composed post changes nothing but the inserted bytes.
        let draft = try composedDraft(draftChoice)
        var edited = feed
        let appended = edited.append(draft, at: instant("2030-01-01T00:00:00+0000"), timeZone: cetZone)
        let old = generated.bytes
        let new = edited.bytes
        let prefix = zip(old, new).prefix { $0 == $1 }.count
        let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
        #expect(new.count > old.count, label)
        #expect(
            min(prefix, old.count) + min(suffix, old.count) >= old.count,
            "original bytes kept around the insertion; \(label)")
        #expect(edited.posts.count == feed.posts.count + 1, label)
        #expect(edited.posts.dropLast().map(\.id) == feed.posts.map(\.id), label)
        #expect(edited.posts.dropLast().map(\.body) == feed.posts.map(\.body), label)
        #expect(edited.profile.keywords.map(\.value) == feed.profile.keywords.map(\.value), label)
        #expect(edited.posts.last?.id == "2030-01-01T01:00:00+0100", label)
        #expect(appended.id == "2030-01-01T01:00:00+0100", label)
        #expect(appended.body == draft.escapedBody, label)
        #expect(
            appended.properties.map { "\($0.name)=\($0.value)" }
                == draft.orderedProperties.map { "\($0.name)=\($0.value)" }, label)
        #expect(appended.kind == composedDraftKind(draftChoice), label)
        #expect(edited.lineEnding == feed.lineEnding, label)
        switch feed.lineEnding {
        case .lf: #expect(!new.contains(0x0D), "only LF; \(label)")
        case .cr: #expect(!new.contains(0x0A), "only CR; \(label)")
        case .crlf:
            let consistent = new.indices.allSatisfy { i in
                (new[i] != 0x0A || (i > 0 && new[i - 1] == 0x0D))
                    && (new[i] != 0x0D || (i + 1 < new.count && new[i + 1] == 0x0A))
            }
            #expect(consistent, "only CRLF; \(label)")
        }
    }

    private func composedDraft(_ choice: Int) throws -> PostDraft {
        let target = PostReference(feedURL: "https://a.example/social.org", postID: "2025-01-01T00:00:00+0000")
        switch choice {
        case 0: return try .post("Fresh *post* 🌱\n** tricky line\n\n日本語", language: "en", tags: ["rand"], mood: "🙂")
        case 1: return try .reply(to: target, text: "A reply")
        case 2: return try .reaction(to: target, emoji: "👍🏽")
        case 3: return try .boost(of: target)
        default: return try .botPost(type: "dice", parameters: ["4"], text: "Rolled 4")
        }
    }

    private func composedDraftKind(_ choice: Int) -> PostKind {
        [.post, .reply, .reaction, .boost, .bot][choice]
    }
}

// MARK: - Generator

/// What the generator wrote: the bytes and the model they should parse to.
struct GeneratedFeed {
    struct Entry {
        var name: String
        var value: String
    }

    struct ExpectedPost {
        var id: String
        var headlineText: String?
        var properties: [Entry]
        var body: String
    }

    var bytes: [UInt8]
    var lineBreak: String
    var hasBOM: Bool
    var hasPostsSection: Bool
    var keywords: [Entry]
    var posts: [ExpectedPost]
    var otherSections: [String]
}

/// Builds random but well-understood feeds.
struct FeedGenerator {
    var rng: SplitMix64
    private var lines: [String] = []
    private var keywords: [GeneratedFeed.Entry] = []
    private var posts: [GeneratedFeed.ExpectedPost] = []

    init(rng: SplitMix64) { self.rng = rng }

    static let keywordNames = [
        "TITLE", "NICK", "DESCRIPTION", "AVATAR", "LINK", "FOLLOW", "GROUP", "CONTACT", "LANGUAGE", "LOCATION",
        "STARTUP",
        "OPTIONS",
    ]
    static let texts = [
        "Hello 👋🏽 world", "👩‍👩‍👧‍👦 family time", "日本語のテキスト", "مرحبا بالعالم", "שלום עולם", "🏴󠁧󠁢󠁳󠁣󠁴󠁿 Scottish",
        "Ünïcödé àccents", "tab\tinside", "=verbatim= ~code~ /italic/ *bold*", "[[https://example.org][a link]]",
        "https://x.example/social.org", "plain words", "x", "colons: in: text", "#hashtag and #+not keyword",
    ]
    static let propertyNames = [
        "LANG", "TAGS", "CLIENT", "MOOD", "REPLY_TO", "INCLUDE", "VISIBILITY", "GROUP", "POLL_OPTION", "URL",
        "CATEGORY",
        "X_CUSTOM",
    ]
    static let propertyValues = [
        "en", "emacs org-mode", "org-social.el", "😊", "🏃‍♂️", "https://b.example/social.org#2025-01-01T00:00:00+0100",
        "mention", "public", "Org Mode https://relay.example.org", "Option A", "https://blog.example/p", "curious",
        "日本",
    ]
    static let titles = ["Hello, World", "First post", "日本語のタイトル", "Initail post", "2025 recap", "hi"]

    mutating func make() -> GeneratedFeed {
        let lineBreak = rng.pick(["\n", "\n", "\n", "\r\n", "\r\n", "\r"])
        let hasBOM = rng.chance(10)
        makeHeader()
        let hasPostsSection = rng.chance(80)
        var otherSections: [String] = []
        if hasPostsSection {
            lines.append(rng.pick(["* Posts", "* Posts", "* Posts  ", "*\tPosts"]))
            for _ in 0..<rng.int(3) { lines.append(blank()) }
            let count = rng.int(7)
            let base = 1_700_000_000 + rng.int(50_000_000)
            for index in 0..<count { makePost(id: makeID(seconds: base + index * 3600 + rng.int(3000))) }
        }
        if rng.chance(30) {
            let title = rng.pick(["Notes", "Archive", "Drafts 日本"])
            otherSections.append(title)
            lines.append("* \(title)")
            for _ in 0..<rng.int(4) {
                lines.append(rng.pick(["** not a post", "text in a section", "", "*** deeper"]))
            }
        }
        var text = lines.joined(separator: lineBreak)
        if rng.chance(80) { text += lineBreak }
        let bytes = (hasBOM ? [0xEF, 0xBB, 0xBF] : []) + utf8(text)
        return GeneratedFeed(
            bytes: bytes, lineBreak: lineBreak, hasBOM: hasBOM, hasPostsSection: hasPostsSection, keywords: keywords,
            posts: hasPostsSection ? posts : [], otherSections: otherSections)
    }

    // MARK: Header

    private mutating func makeHeader() {
        for _ in 0..<rng.int(10) {
            switch rng.int(10) {
            case 0...3: keywordLine()
            case 4: lines.append("# " + rng.pick(["comment", "▗▄▖ banner ▐▌", "#+TITLE: commented out", ""]))
            case 5: lines.append(blank())
            case 6:
                lines.append(rng.pick(["#+begin_src emacs-lisp", "#+BEGIN_SRC", "#+begin_example", "  #+BEGIN_QUOTE"]))
                for _ in 0..<rng.int(3) {
                    lines.append(rng.pick(["#+NICK: fake", "(setq x 1)", "#+TITLE: fake", "", "  indented"]))
                }
                lines.append(rng.pick(["#+end_src", "#+END_SRC", "#+end_example", "#+END_QUOTE"]))
            case 7:
                lines.append(rng.pick([":preamble:", ":PREAMBLE:"]))
                for _ in 0..<(1 + rng.int(3)) { keywordLine() }
                lines.append(rng.pick([":end:", ":END:"]))
            case 8: lines.append(rng.pick(["Some prose in the header.", "  indented prose", ":END:", "#+", "#+:"]))
            default: keywordLine()
            }
        }
    }

    private mutating func keywordLine() {
        let name = randomCase(rng.pick(Self.keywordNames))
        let value = rng.chance(15) ? "" : rng.pick(Self.texts)
        let separator = value.isEmpty ? rng.pick(["", " ", "  "]) : rng.pick([" ", " ", "  ", "\t", ""])
        let indent = rng.chance(10) ? "  " : ""
        lines.append("\(indent)#+\(name):\(separator)\(value)\(trailingSpace())")
        keywords.append(.init(name: name, value: value))
    }

    // MARK: Posts

    private mutating func makeID(seconds: Int) -> String {
        let offset = (rng.int(29) - 12) * 3600 + (rng.chance(10) ? 1800 : 0)
        let id = OrgTimestamp.format(Date(timeIntervalSince1970: TimeInterval(seconds)), timeZone: zone(offset))
        switch rng.int(10) {
        case 0, 1, 2:  // +HH:MM
            var chars = Array(id)
            chars.insert(":", at: chars.count - 2)
            return String(chars)
        case 3: return String(id.dropLast(5))  // no offset: invalid, still an ID
        default: return id
        }
    }

    private mutating func makePost(id: String) {
        var properties: [GeneratedFeed.Entry] = []
        var headlineText: String?
        let form = rng.int(4)
        let separator = rng.pick([" ", " ", "\t", "  "])
        var idInDrawer = false
        switch form {
        case 0:  // ** <ID>
            lines.append("**\(separator)\(id)\(trailingSpace())")
            idInDrawer = rng.chance(20)
        case 1:  // legacy: **, ** or **<TAB>, ID in the drawer
            lines.append(rng.pick(["**", "** ", "**\t", "**   "]))
            idInDrawer = true
        case 2:  // a title in the headline, ID in the drawer
            let title = rng.pick(Self.titles)
            lines.append("**\(separator)\(title)\(trailingSpace())")
            headlineText = title
            idInDrawer = true
        default:  // ** <ID> <title>
            let title = rng.pick(Self.titles)
            lines.append("** \(id) \(title)\(trailingSpace())")
            headlineText = title
        }
        let hasDrawer = idInDrawer || rng.chance(70)
        if hasDrawer {
            if rng.chance(10) { lines.append("") }  // blank line before the drawer: tolerated with a warning
            lines.append(rng.pick([":PROPERTIES:", ":PROPERTIES:", ":properties:"]))
            var entries: [GeneratedFeed.Entry] = []
            for _ in 0..<rng.int(6) {
                let name = randomCase(rng.pick(Self.propertyNames))
                let value = rng.chance(25) ? "" : rng.pick(Self.propertyValues)
                entries.append(.init(name: name, value: value))
            }
            if idInDrawer {
                entries.insert(.init(name: rng.pick(["ID", "id", "Id"]), value: id), at: rng.int(entries.count + 1))
            }
            for entry in entries {
                if rng.chance(5) { lines.append(rng.pick(["not a property", ":broken line"])) }
                let separator = entry.value.isEmpty ? rng.pick(["", " ", "   "]) : rng.pick([" ", "  ", "\t"])
                lines.append(":\(entry.name):\(separator)\(entry.value)\(trailingSpace())")
            }
            properties = entries
            lines.append(rng.pick([":END:", ":END:", ":end:"]))
        }
        for _ in 0..<rng.int(3) { lines.append(blank()) }
        var body: [String] = []
        for _ in 0..<rng.int(6) { body.append(contentsOf: bodyLines()) }
        lines.append(contentsOf: body)
        for _ in 0..<rng.int(3) { lines.append(blank()) }
        while let first = body.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { body.removeFirst() }
        while let last = body.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { body.removeLast() }
        posts.append(
            .init(id: id, headlineText: headlineText, properties: properties, body: body.joined(separator: "\n")))
    }

    private mutating func bodyLines() -> [String] {
        switch rng.int(12) {
        case 0: return ["*** " + rng.pick(Self.titles)]
        case 1: return ["- [ ] " + rng.pick(Self.texts), "- [X] done"]
        case 2:
            return [
                "Hi [[org-social:https://a.example/social.org][ana]] and [[org-social:https://b.example/social.org]]"
            ]
        case 3: return ["#+begin_src python", "print('hi')", "  # comment", "#+end_src"]
        case 4: return [blank()]
        case 5: return [rng.pick(Self.texts) + "   "]
        case 6: return ["  " + rng.pick(Self.texts)]
        case 7: return ["*bold* start", "**strong** too", "****"]
        case 8: return ["#+TITLE: not a keyword here", ":LANG: not a property here"]
        default: return [rng.pick(Self.texts)]
        }
    }

    // MARK: Small pieces

    private mutating func blank() -> String { rng.pick(["", "", " ", "\t", "   "]) }

    private mutating func trailingSpace() -> String { rng.chance(20) ? rng.pick([" ", "  ", "\t"]) : "" }

    private mutating func randomCase(_ name: String) -> String {
        switch rng.int(4) {
        case 0: return name.lowercased()
        case 1: return String(name.map { rng.chance(50) ? Character($0.lowercased()) : $0 })
        default: return name
        }
    }
}
