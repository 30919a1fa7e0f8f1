public import Foundation

/// A parsed `social.org` file: its profile, its posts, the diagnostics found while reading it, and the
/// exact bytes it came from.
///
/// A feed is **lossless**: ``bytes`` are the bytes that were parsed, so serializing an unmodified feed
/// gives them back unchanged whatever they hold (CRLF, a byte-order mark, invalid UTF-8, no final line
/// break, lines that mean nothing to Org Social). The editing functions (``append(_:at:timeZone:)``,
/// ``updatePost(id:_:)``, ``deletePost(id:)``, ``setKeyword(_:to:)``, …) replace only the bytes of what they
/// change and parse the result again, so the model and the bytes always agree.
public struct Feed: Sendable {
    /// The file's bytes; ``serialized()`` returns them.
    public let bytes: [UInt8]
    /// The header keywords.
    public let profile: Profile
    /// The posts in file order (not sorted; see ``postsSortedByDate(newestFirst:)``). Each post is read
    /// from ``bytes`` when it is accessed (see ``PostList``).
    public let posts: PostList
    /// What the parser noticed, in file order. Run ``FeedValidator`` for the full set of rules.
    public let diagnostics: [Diagnostic]
    /// The line break style the file uses (new content is written with the same one).
    public let lineEnding: LineEnding
    /// Whether the file has a `* Posts` section.
    public let hasPostsSection: Bool
    /// Whether the file starts with a UTF-8 byte-order mark.
    public let hasByteOrderMark: Bool
    /// Level-1 headings other than `* Posts`, in file order (kept verbatim in ``bytes``).
    public let otherSections: [SectionHeading]

    let layout: FeedLayout

    init(
        bytes: [UInt8], profile: Profile, posts: PostList, diagnostics: [Diagnostic], lineEnding: LineEnding,
        hasByteOrderMark: Bool, otherSections: [SectionHeading], layout: FeedLayout
    ) {
        self.bytes = bytes
        self.profile = profile
        self.posts = posts
        self.diagnostics = diagnostics
        self.lineEnding = lineEnding
        self.hasPostsSection = !layout.postsHeadings.isEmpty
        self.hasByteOrderMark = hasByteOrderMark
        self.otherSections = otherSections
        self.layout = layout
    }

    /// Parses UTF-8 text. Never throws: problems become ``diagnostics``.
    /// - Parameter text: the file's content.
    public init(parsing text: String) {
        self = OrgSocialParser().parse(text)
    }

    /// Parses raw bytes. Never throws: invalid UTF-8 reads as U+FFFD and is reported.
    /// - Parameter bytes: the file's bytes.
    public init(bytes: some Sequence<UInt8>) {
        self = OrgSocialParser().parse(bytes: bytes)
    }

    /// An empty feed (no bytes at all).
    public static var empty: Feed { Feed(bytes: []) }

    // MARK: - Serializing

    /// The file's bytes: identical to the parsed input when nothing was edited.
    public func serialized() -> [UInt8] { bytes }

    /// The file's bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The file decoded as text (invalid UTF-8 shows as U+FFFD).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: - Looking posts up

    /// The first post whose ID is exactly `id` (IDs are compared as strings; spec §4.3).
    /// - Parameter id: the post ID as written.
    /// - Returns: The post, or `nil` when no post has that ID.
    public func post(withID id: String) -> Post? {
        positionsOfPosts(withID: id).first.map { posts[$0] }
    }

    /// The positions of the posts whose ID is `id`, in file order, found without reading every post of a
    /// big feed: a post's ID is written in its own bytes (its headline or its `:ID:`), so only the posts
    /// where the ID's text stands are read.
    /// - Parameter id: the ID, exactly as written.
    /// - Returns: the positions.
    package func positionsOfPosts(withID id: String) -> [Int] {
        let needle = Array(id.utf8)
        // An ID read from bytes that are not UTF-8 holds U+FFFD, which its bytes do not: read every post then.
        guard !needle.isEmpty, !id.unicodeScalars.contains("\u{FFFD}") else {
            return posts.indices.filter { posts[$0].id == id }
        }
        var found: [Int] = []
        var read = Set<Int>()
        var from = posts.isEmpty ? bytes.count : 0
        while let range = ByteSearch.firstRange(of: needle, in: bytes, within: from..<bytes.count) {
            for position in posts.positions(meeting: range) where read.insert(position).inserted {
                if posts[position].id == id { found.append(position) }
            }
            from = range.lowerBound + 1
        }
        return found.sorted()
    }

    /// The posts sorted by their instant (invalid IDs by their lenient reading, unreadable ones last);
    /// ties keep file order (spec §15 cases 35 and 36).
    /// - Parameter newestFirst: newest first (timeline order) or oldest first.
    /// - Returns: The sorted posts.
    public func postsSortedByDate(newestFirst: Bool = true) -> [Post] {
        posts.sortedByDate(newestFirst: newestFirst)
    }

    /// Whether the parser found an error (not only warnings).
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
}

extension Sequence where Element == Post {
    /// Sorted by instant; posts without a readable instant go last; ties keep their order.
    /// - Parameter newestFirst: descending (`true`) or ascending order.
    /// - Returns: The sorted posts.
    public func sortedByDate(newestFirst: Bool = true) -> [Post] {
        let keyed = enumerated().map { (offset: $0.offset, date: $0.element.timestamp?.sortInstant, post: $0.element) }
        return keyed.sorted { a, b in
            switch (a.date, b.date) {
            case (let x?, let y?):
                if x != y { return newestFirst ? x > y : x < y }
                return a.offset < b.offset
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return a.offset < b.offset
            }
        }.map(\.post)
    }
}

/// The line break a file uses.
public enum LineEnding: String, Sendable, Hashable, Codable {
    /// `\n` (the spec's requirement).
    case lf
    /// `\r\n`.
    case crlf
    /// A lone `\r`.
    case cr

    /// The bytes of the line break.
    public var bytes: [UInt8] {
        switch self {
        case .lf: [UInt8(ascii: "\n")]
        case .crlf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        case .cr: [UInt8(ascii: "\r")]
        }
    }
}

/// A level-1 heading of the file other than `* Posts`.
public struct SectionHeading: Sendable, Hashable, Codable {
    /// The heading's text after `* `.
    public let title: String
    /// Its 1-based line.
    public let line: Int
}

/// Byte places of the file's structure, for lossless editing.
struct FeedLayout: Sendable, Hashable {
    /// Where the content starts (after a byte-order mark).
    var contentStart: Int
    /// Each `* Posts` heading: start of its line, start of the next line, and the end (start of the next
    /// line) of the section's last non-blank line.
    var postsHeadings: [(start: Int, end: Int, contentEnd: Int)]
    /// Where the header zone ends (start of the first `* Posts` line, or EOF).
    var headerEnd: Int
    /// Whether the last line has a line break.
    var endsWithLineBreak: Bool

    static func == (lhs: FeedLayout, rhs: FeedLayout) -> Bool {
        lhs.contentStart == rhs.contentStart && lhs.headerEnd == rhs.headerEnd
            && lhs.endsWithLineBreak == rhs.endsWithLineBreak
            && lhs.postsHeadings.map(\.start) == rhs.postsHeadings.map(\.start)
            && lhs.postsHeadings.map(\.end) == rhs.postsHeadings.map(\.end)
            && lhs.postsHeadings.map(\.contentEnd) == rhs.postsHeadings.map(\.contentEnd)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(contentStart)
        hasher.combine(headerEnd)
    }
}

extension Feed: Equatable {
    /// Two feeds are equal when their bytes are.
    public static func == (lhs: Feed, rhs: Feed) -> Bool { lhs.bytes == rhs.bytes }
}

extension Feed: Encodable {
    /// Set to `true` in an encoder's `userInfo` to encode `posts` as an empty array, for writers that encode
    /// the posts one at a time (the JSON of a feed can be many times the size of its bytes).
    package static let omitsPostsKey: CodingUserInfoKey = {
        // `CodingUserInfoKey(rawValue:)` accepts every string; the guard only avoids a force unwrap.
        guard let key = CodingUserInfoKey(rawValue: "orgsocial.omitsPosts") else {
            preconditionFailure("CodingUserInfoKey rejected a constant raw value")
        }
        return key
    }()

    private enum CodingKeys: String, CodingKey {
        case profile, posts, diagnostics, lineEnding, hasPostsSection, hasByteOrderMark, otherSections
    }

    private enum ProfileKeys: String, CodingKey {
        case title, nick, description, avatar, links, location, birthday, languages, pinned, follows, groups
        case contacts, keywords
    }

    /// Encodes the feed's parsed view (the JSON of `orgsocial show --json`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var p = c.nestedContainer(keyedBy: ProfileKeys.self, forKey: .profile)
        try p.encodeIfPresent(profile.title, forKey: .title)
        try p.encodeIfPresent(profile.nick, forKey: .nick)
        try p.encodeIfPresent(profile.description, forKey: .description)
        try p.encodeIfPresent(profile.avatar, forKey: .avatar)
        try p.encode(profile.links, forKey: .links)
        try p.encodeIfPresent(profile.location, forKey: .location)
        try p.encodeIfPresent(profile.birthday, forKey: .birthday)
        try p.encode(profile.languages, forKey: .languages)
        try p.encodeIfPresent(profile.pinned, forKey: .pinned)
        try p.encode(profile.follows, forKey: .follows)
        try p.encode(profile.groups, forKey: .groups)
        try p.encode(profile.contacts, forKey: .contacts)
        try p.encode(profile.keywords, forKey: .keywords)
        if encoder.userInfo[Feed.omitsPostsKey] as? Bool == true {
            try c.encode([Post](), forKey: .posts)
        } else {
            try c.encode(posts, forKey: .posts)
        }
        try c.encode(diagnostics, forKey: .diagnostics)
        try c.encode(lineEnding, forKey: .lineEnding)
        try c.encode(hasPostsSection, forKey: .hasPostsSection)
        try c.encode(hasByteOrderMark, forKey: .hasByteOrderMark)
        try c.encode(otherSections, forKey: .otherSections)
    }
}
