public import Foundation

/// One post of a feed: a level-2 heading under `* Posts` (spec §4–§7).
///
/// A post is a read-only view of the bytes it was parsed from. Change a post through the editing
/// functions of ``Feed`` (for example ``Feed/updatePost(id:_:)``), which touch only its bytes.
public struct Post: Sendable {
    /// The ID exactly as written (headline or `:ID:`), or `nil` when the post has none.
    public let id: String?
    /// The ID read as a timestamp.
    public let timestamp: OrgTimestamp?
    /// The 1-based line of the headline.
    public let line: Int
    /// The post's position in the file (0-based), used to break sorting ties.
    public let index: Int

    let source: [UInt8]
    /// The drawer entries read with this post (shared, not copied); this post's are `entryRange`.
    let entries: EntryList
    let entryRange: Range<Int>
    let headlineTextRange: Range<Int>?
    let layout: PostLayout
    let hasCarriageReturns: Bool
    /// Which known properties have a non-empty value in the drawer.
    let valued: KnownProperty.Set

    init(
        timestamp: OrgTimestamp?, line: Int, index: Int, source: [UInt8], entries: EntryList,
        entryRange: Range<Int>, headlineTextRange: Range<Int>?, layout: PostLayout, hasCarriageReturns: Bool
    ) {
        self.id = timestamp?.raw
        self.timestamp = timestamp
        self.line = line
        self.index = index
        self.source = source
        self.entries = entries
        self.entryRange = entryRange
        self.headlineTextRange = headlineTextRange
        self.layout = layout
        self.hasCarriageReturns = hasCarriageReturns
        valued = source.withUnsafeBufferPointer { buffer in
            let bytes = ByteView(buf: buffer)
            var valued = KnownProperty.Set()
            for index in entryRange {
                if let property = Self.knownProperty(ofEntry: index, in: entries, bytes) { valued.insert(property) }
            }
            return valued
        }
    }

    /// The known property drawer entry `index` sets, when it is one and has a value.
    private static func knownProperty(ofEntry index: Int, in entries: EntryList, _ bytes: ByteView) -> KnownProperty? {
        let start = entries.nameStart(index)
        let name = UnsafeBufferPointer(rebasing: bytes.buf[start..<bytes.nameEnd(from: start)])
        guard let property = KnownProperty(named: name), entries.hasValue(index, in: bytes) else { return nil }
        return property
    }

    /// Headline text that is not the ID (a title some feeds put there), if any.
    public var headlineText: String? { headlineTextRange.map { String(decoding: source[$0], as: UTF8.self) } }

    /// The drawer's entries in file order, unknown ones included (built from the file on each access;
    /// use ``value(of:)`` to read one property).
    public var properties: [Property] {
        var list: [Property] = []
        list.reserveCapacity(entryRange.count)
        forEachProperty { list.append($0) }
        return list
    }

    /// Calls `work` with a view of the post's bytes.
    private func withBytes<T>(_ work: (ByteView) throws -> T) rethrows -> T {
        try source.withUnsafeBufferPointer { try work(ByteView(buf: $0)) }
    }

    /// All the byte places of drawer entry `index` (one of ``entryRange``).
    func entrySpan(_ index: Int) -> EntrySpan {
        withBytes { entries.span(index, in: $0, hasCR: hasCarriageReturns) }
    }

    /// Where each property line is, parallel to ``properties``.
    var propertyLocations: [EntryLocation] {
        withBytes { bytes in entryRange.map { entries.span($0, in: bytes, hasCR: hasCarriageReturns).location } }
    }

    // MARK: - Text

    /// The body: the text after the drawer up to the next post, without leading and trailing blank
    /// lines, lines joined with `\n`. Org markup is kept as written.
    public var body: String {
        // No array of parts: most posts have one segment, and many (reactions, boosts) none.
        var text = ""
        if let first = layout.firstBodySegment { text = decode(first) }
        if let second = layout.secondBodySegment {
            let more = decode(second)
            if !more.isEmpty { text = text.isEmpty ? more : text + "\n\n" + more }
        }
        return text
    }

    /// The bytes of the whole post as they are in the file (headline through its last non-blank line).
    public var rawBytes: ArraySlice<UInt8> { source[layout.start..<layout.contentEnd] }

    /// The post's text as it is in the file.
    public var rawText: String { decode(layout.start..<layout.contentEnd) }

    private func decode(_ range: Range<Int>) -> String {
        let text = String(decoding: source[range], as: UTF8.self)
        guard hasCarriageReturns else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }

    // MARK: - Properties

    /// The first non-empty value of a property (ASCII case ignored; first occurrence wins).
    /// - Parameter name: the property name without colons, e.g. `LANG`.
    /// - Returns: The value, or `nil` when the property is absent or empty.
    public func value(of name: String) -> String? {
        if let known = KnownProperty(named: name) { return value(of: known) }
        var name = name
        return name.withUTF8 { value(ofEntryNamed: $0) }
    }

    /// The first non-empty value of a known property, found without a search when it has none.
    func value(of property: KnownProperty) -> String? {
        guard valued.contains(property) else { return nil }
        return value(ofEntryNamed: property.nameBytes)
    }

    /// The first non-empty value of the entries named by the bytes `name`.
    private func value(ofEntryNamed name: UnsafeBufferPointer<UInt8>) -> String? {
        guard let entry = firstEntry(named: name) else { return nil }
        return String(decoding: source[entry.valueStart..<entry.valueEnd], as: UTF8.self)
    }

    /// Whether the post has a non-empty value for the property.
    func hasValue(_ property: KnownProperty) -> Bool { valued.contains(property) }

    private func firstEntry(named key: UnsafeBufferPointer<UInt8>) -> EntrySpan? {
        withBytes { bytes in
            for index in entryRange where bytes.nameEquals(from: entries.nameStart(index), key) {
                let entry = entries.span(index, in: bytes, hasCR: hasCarriageReturns)
                if entry.valueEnd > entry.valueStart { return entry }
            }
            return nil
        }
    }

    /// The instant of the ID, when the ID is valid.
    public var instant: Date? { timestamp?.instant }

    /// `:LANG:`.
    public var language: String? { value(of: .lang) }
    /// `:TAGS:` split on whitespace, a leading `#` dropped from each tag.
    public var tags: [String] {
        var tags: [String] = []
        forEachTag { tags.append(String(decoding: $0, as: UTF8.self)) }
        return tags
    }

    /// Calls `visit` with the UTF-8 bytes of each of ``tags`` in order, without making their strings.
    /// - Parameter visit: receives a tag's bytes (valid only during the call).
    package func forEachTag(_ visit: (UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        guard valued.contains(.tags), let entry = firstEntry(named: KnownProperty.tags.nameBytes) else { return }
        try withBytes { bytes in
            var start = entry.valueStart
            while start < entry.valueEnd {
                var end = start
                while end < entry.valueEnd, !isSpaceOrTab(bytes.buf[end]) { end += 1 }
                var tag = UnsafeBufferPointer(rebasing: bytes.buf[start..<end])
                // A `#` is dropped when it is a character of its own, not the start of a longer cluster
                // (`#` and a combining mark): only a non-ASCII byte after it can start one.
                if tag.first == UInt8(ascii: "#"),
                    tag.count == 1 || tag[1] < 0x80 || String(decoding: tag, as: UTF8.self).hasPrefix("#")
                {
                    tag = UnsafeBufferPointer(rebasing: tag.dropFirst())
                }
                if !tag.isEmpty { try visit(tag) }
                start = end
                while start < entry.valueEnd, isSpaceOrTab(bytes.buf[start]) { start += 1 }
            }
        }
    }
    /// `:CLIENT:`.
    public var client: String? { value(of: .client) }
    /// `:MOOD:`.
    public var mood: String? { value(of: .mood) }
    /// ``replyTo`` or ``include`` as text (its `description`), without making its parts.
    package func referenceText(_ property: KnownProperty) -> String? {
        value(of: property).flatMap(PostReference.text(parsing:))
    }

    /// `:REPLY_TO:` as a reference.
    public var replyTo: PostReference? { value(of: .replyTo).flatMap(PostReference.init(parsing:)) }
    /// `:INCLUDE:` as a reference (a boost or quote-boost).
    public var include: PostReference? { value(of: .include).flatMap(PostReference.init(parsing:)) }
    /// `:POLL_END:` as a timestamp.
    public var pollEnd: OrgTimestamp? { value(of: .pollEnd).map(OrgTimestamp.init) }
    /// `:POLL_OPTION:`: the option this vote chooses.
    public var pollOption: String? { value(of: .pollOption) }
    /// `:GROUP:` as a group reference.
    public var group: GroupReference? { value(of: .group).flatMap(GroupReference.init(parsing:)) }
    /// `:VISIBILITY:`; `.public` when absent.
    public var visibility: Visibility { value(of: .visibility).map(Visibility.init(rawValue:)) ?? .public }
    /// `:MIGRATION:` as old and new URL.
    public var migration: Migration? { value(of: .migration).flatMap(Migration.init(parsing:)) }
    /// `:BOT:` as type and parameters.
    public var bot: BotPayload? { value(of: .bot).flatMap(BotPayload.init(parsing:)) }

    /// Whether the body is empty.
    public var hasEmptyBody: Bool {
        (layout.firstBodySegment?.isEmpty ?? true) && (layout.secondBodySegment?.isEmpty ?? true)
    }

    /// What the post is (spec §7). A reply with a mood and text is a reply; with an empty body it is a
    /// reaction (spec §15 case 31).
    public var kind: PostKind {
        if hasValue(.migration) { return .migration }
        if hasValue(.bot) { return .bot }
        if hasValue(.pollEnd) { return .poll }
        let replies = hasValue(.replyTo)
        if replies, hasValue(.pollOption) { return .vote }
        if replies, hasValue(.mood), hasEmptyBody { return .reaction }
        if hasValue(.include) { return hasEmptyBody ? .boost : .quoteBoost }
        if replies { return .reply }
        return .post
    }

    /// The `org-social:` links in the body, with or without a description.
    public var mentions: [Mention] { bodyMayHoldMentions ? MentionScanner.mentions(in: body) : [] }

    /// Whether the body's bytes hold a link opening `[[org-social:` (most bodies do not, and then the body
    /// need not be built to find none).
    private var bodyMayHoldMentions: Bool {
        // The two segments one by one: `bodySegments` would allocate an array for every post.
        guard layout.firstBodySegment != nil || layout.secondBodySegment != nil else { return false }
        return source.withUnsafeBufferPointer { buffer in
            for segment in [layout.firstBodySegment, layout.secondBodySegment] {
                if let segment, MentionScanner.containsOpening(UnsafeBufferPointer(rebasing: buffer[segment])) {
                    return true
                }
            }
            return false
        }
    }

    /// The options of a poll: `- [ ] Option` lines of the body (lenient form, trimmed; spec §7).
    public var pollOptions: [String] { PollOptionLine.options(in: body) }

    /// Whether ``pollOptions`` is not empty, found without making the options' strings.
    var hasPollOptions: Bool {
        !PollOptionLine.options(in: body, limit: 1).isEmpty
    }

    /// ``body`` and ``pollOptions`` from one reading of the body (each of the two properties builds the
    /// body again), for writers that need both; ``forEachMention(inBody:_:)`` gives the mentions of the same
    /// body.
    package var bodyAndPollOptions: (body: String, pollOptions: [String]) {
        let body = body
        return (body, PollOptionLine.options(in: body))
    }

    /// Calls `visit` with each of ``mentions`` in order, without building that array (a hostile body can
    /// hold hundreds of thousands of links).
    /// - Parameters:
    ///   - body: this post's ``body``, when the caller has it already (else it is built).
    ///   - visit: receives each mention.
    package func forEachMention(inBody body: String? = nil, _ visit: (Mention) throws -> Void) rethrows {
        guard bodyMayHoldMentions else { return }
        try MentionScanner.forEachMention(in: body ?? self.body, visit)
    }

    /// Calls `visit` with each drawer entry in file order, as ``properties`` lists them, without building
    /// that array (a hostile drawer can hold hundreds of thousands of entries).
    /// - Parameter visit: receives each entry.
    package func forEachProperty(_ visit: (Property) throws -> Void) rethrows {
        for index in entryRange { try visit(property(from: entrySpan(index))) }
    }

    /// Calls `visit` with each drawer entry's line and the UTF-8 bytes of its name and value, in file order:
    /// ``forEachProperty(_:)`` without making strings, for writers that copy the bytes.
    /// - Parameter visit: receives the line, the name's bytes and the value's bytes (valid only during the call).
    package func forEachPropertyBytes(
        _ visit: (_ line: Int, _ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        try withBytes { bytes in
            for index in entryRange {
                let entry = entries.span(index, in: bytes, hasCR: hasCarriageReturns)
                try visit(
                    entry.line, UnsafeBufferPointer(rebasing: bytes.buf[entry.nameStart..<entry.nameEnd]),
                    UnsafeBufferPointer(rebasing: bytes.buf[entry.valueStart..<entry.valueEnd]))
            }
        }
    }

    /// The ``Property`` of one of this post's drawer entries.
    func property(from entry: EntrySpan) -> Property {
        withBytes { bytes in
            Property(
                name: bytes.string(entry.nameStart..<entry.nameEnd),
                value: bytes.string(entry.valueStart..<entry.valueEnd),
                line: entry.line,
                valueColumn: bytes.column(lineStart: entry.location.lineStart, offset: entry.valueStart))
        }
    }

    /// The known property drawer entry `index` (one of ``entryRange``) sets, when it is one and has a value:
    /// what the validator asks of every entry before it reads one (O(the name's length)).
    func knownProperty(ofEntry index: Int) -> KnownProperty? {
        guard !valued.isEmpty else { return nil }
        return withBytes { Self.knownProperty(ofEntry: index, in: entries, $0) }
    }

    /// ``instant`` as `show --json` writes it: `2025-05-01T11:00:00Z` (UTC, whole seconds).
    package var instantText: String? { instant.map(isoUTC) }

    /// The post URL, `<feedURL>#<ID>`, when the post has an ID.
    /// - Parameter feedURL: the URL the feed is published at.
    /// - Returns: The URL, or `nil` when the post has no ID.
    public func url(in feedURL: String) -> String? { id.map { "\(feedURL)#\($0)" } }

    /// The post as a reference inside the feed at `feedURL`.
    public func reference(in feedURL: String) -> PostReference? {
        id.map { PostReference(feedURL: feedURL, postID: $0) }
    }
}

// MARK: - Conformances

extension Post: Equatable {
    /// Two posts are equal when their IDs, headlines, properties, positions and bodies are.
    public static func == (lhs: Post, rhs: Post) -> Bool {
        lhs.id == rhs.id && lhs.headlineText == rhs.headlineText && lhs.properties == rhs.properties
            && lhs.line == rhs.line && lhs.index == rhs.index && lhs.body == rhs.body
    }
}

extension Post: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, instant, validID, headlineText, line, kind, properties, body, language, tags, client, mood
        case replyTo, include, pollEnd, pollOption, pollOptions, group, visibility, migration, bot, mentions
    }

    /// Encodes the post's parsed view (the JSON of `orgsocial show --json`).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(instantText, forKey: .instant)
        try c.encode(instant != nil, forKey: .validID)
        try c.encodeIfPresent(headlineText, forKey: .headlineText)
        try c.encode(line, forKey: .line)
        try c.encode(kind, forKey: .kind)
        let (body, pollOptions) = bodyAndPollOptions
        let mentions = bodyMayHoldMentions ? MentionScanner.mentions(in: body) : []
        try c.encode(properties, forKey: .properties)
        try c.encode(body, forKey: .body)
        try c.encodeIfPresent(language, forKey: .language)
        try c.encode(tags, forKey: .tags)
        try c.encodeIfPresent(client, forKey: .client)
        try c.encodeIfPresent(mood, forKey: .mood)
        try c.encodeIfPresent(replyTo?.description, forKey: .replyTo)
        try c.encodeIfPresent(include?.description, forKey: .include)
        try c.encodeIfPresent(pollEnd?.raw, forKey: .pollEnd)
        try c.encodeIfPresent(pollOption, forKey: .pollOption)
        try c.encode(pollOptions, forKey: .pollOptions)
        try c.encodeIfPresent(group, forKey: .group)
        try c.encode(visibility, forKey: .visibility)
        try c.encodeIfPresent(migration, forKey: .migration)
        try c.encodeIfPresent(bot, forKey: .bot)
        try c.encode(mentions, forKey: .mentions)
    }
}

/// `2025-05-01T11:00:00Z` for a date (UTC, whole seconds).
func isoUTC(_ date: Date) -> String {
    let seconds = Int(date.timeIntervalSince1970.rounded(.down))
    let (days, sod) = floorDivMod(seconds, 86_400)
    let (y, m, d) = civilFromDays(days)
    guard (0...9999).contains(y) else {
        func p(_ v: Int, _ w: Int = 2) -> String {
            let s = String(v)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        // ISO 8601's expanded years: a sign before a negative one (`-0001` is 2 BCE).
        let year = y < 0 ? "-" + p(-y, 4) : p(y, 4)
        return "\(year)-\(p(m))-\(p(d))T\(p(sod / 3600)):\(p(sod % 3600 / 60)):\(p(sod % 60))Z"
    }
    // Digits written into a fixed buffer: `show --json` formats one of these for every post.
    return String(unsafeUninitializedCapacity: 20) { buffer in
        func digits(_ value: Int, _ width: Int, at offset: Int) {
            var value = value
            for place in stride(from: offset + width - 1, through: offset, by: -1) {
                buffer[place] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        digits(y, 4, at: 0)
        digits(m, 2, at: 5)
        digits(d, 2, at: 8)
        digits(sod / 3600, 2, at: 11)
        digits(sod % 3600 / 60, 2, at: 14)
        digits(sod % 60, 2, at: 17)
        (buffer[4], buffer[7], buffer[10]) = (UInt8(ascii: "-"), UInt8(ascii: "-"), UInt8(ascii: "T"))
        (buffer[13], buffer[16], buffer[19]) = (UInt8(ascii: ":"), UInt8(ascii: ":"), UInt8(ascii: "Z"))
        return 20
    }
}
