public import Foundation

/// A replacement of one byte range of a feed.
struct ByteEdit {
    var range: Range<Int>
    var replacement: [UInt8]
}

// MARK: - Engine

extension Feed {
    /// Applies non-overlapping edits (given against the current bytes) and parses the result.
    func applying(_ edits: [ByteEdit]) -> Feed {
        guard !edits.isEmpty else { return self }
        var out = bytes
        // From the end backwards, so earlier offsets stay valid; of two edits at the same offset the one
        // listed later is applied first, which leaves the one listed first in front of it.
        let ordered = edits.enumerated().sorted {
            ($0.element.range.lowerBound, $0.offset) > ($1.element.range.lowerBound, $1.offset)
        }
        for (_, edit) in ordered {
            out.replaceSubrange(edit.range, with: edit.replacement)
        }
        return OrgSocialParser().parse(bytes: out)
    }

    /// Text written with this file's line break (LF unless the file uses CRLF or CR).
    func encoded(_ text: String) -> [UInt8] {
        switch lineEnding {
        case .lf: Array(text.utf8)
        case .crlf: Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .cr: Array(text.replacingOccurrences(of: "\n", with: "\r").utf8)
        }
    }

    /// An insertion at `offset`; when it goes at the very end of a file whose last line has no line
    /// break, a line break is put first so the new text starts on its own line.
    func insertion(at offset: Int, _ text: String) -> ByteEdit {
        var replacement = encoded(text)
        if offset == bytes.count, !layout.endsWithLineBreak, offset > layout.contentStart {
            replacement = lineEnding.bytes + replacement
        }
        return ByteEdit(range: offset..<offset, replacement: replacement)
    }

    func removal(_ range: Range<Int>) -> ByteEdit { ByteEdit(range: range, replacement: []) }

    func postIndex(id: String) throws -> Int {
        guard let index = posts.firstIndex(where: { $0.id == id }) else { throw OrgSocialError.postNotFound(id: id) }
        return index
    }
}

// MARK: - Posts

extension Feed {
    /// Appends a post at the end of the posts section (creating `* Posts` at the end of the file when
    /// missing) and returns it. Only the inserted bytes are new; the rest of the file is untouched.
    ///
    /// The ID is `date` in `timeZone` as `YYYY-MM-DDThh:mm:ss+hhmm`, moved forward a second at a time
    /// until no post of the feed has it (spec §4.4).
    /// - Parameters:
    ///   - draft: the post's content (see the composers on ``PostDraft``).
    ///   - date: the post's time; now by default.
    ///   - timeZone: the zone its ID is written in.
    /// - Returns: the new post as parsed from the edited feed.
    @discardableResult
    public mutating func append(_ draft: PostDraft, at date: Date = Date(), timeZone: TimeZone = .current) -> Post {
        let id = uniqueID(for: date, timeZone: timeZone)
        let rendered = draft.render(id: id)
        let edit: ByteEdit
        if let heading = layout.postsHeadings.last {
            if let last = posts.last {
                edit = insertion(at: last.layout.contentEnd, "\n" + rendered)
            } else if heading.contentEnd > heading.end {
                // Stray text under `* Posts`: the post goes after it, so the text does not become its body.
                edit = insertion(at: heading.contentEnd, "\n" + rendered)
            } else {
                edit = insertion(at: heading.end, rendered)
            }
        } else {
            var prefix = ""
            if bytes.count > layout.contentStart {
                let lastLineBlank = layout.endsWithLineBreak && endsWithBlankLine()
                prefix = lastLineBlank ? "" : "\n"
            }
            edit = insertion(at: bytes.count, prefix + "* Posts\n" + rendered)
        }
        self = applying([edit])
        return posts.last { $0.id == id } ?? posts[posts.count - 1]
    }

    /// The first free ID at or after `date` (compared as strings, like every reader does).
    public func uniqueID(for date: Date, timeZone: TimeZone = .current) -> String {
        let used = Set(posts.compactMap(\.id))
        var moment = date
        var id = OrgTimestamp.format(moment, timeZone: timeZone)
        while used.contains(id) {
            moment += 1
            id = OrgTimestamp.format(moment, timeZone: timeZone)
        }
        return id
    }

    private func endsWithBlankLine() -> Bool {
        var i = bytes.count - 1
        while i >= 0, bytes[i] == 0x0A || bytes[i] == 0x0D { i -= 1 }
        var newlines = 0
        var j = i + 1
        while j < bytes.count {
            if bytes[j] == 0x0A || (bytes[j] == 0x0D && (j + 1 == bytes.count || bytes[j + 1] != 0x0A)) {
                newlines += 1
            }
            j += 1
        }
        return newlines >= 2 || i < layout.contentStart
    }

    /// Changes a post in place, keeping its ID (spec §7 "Editing").
    ///
    /// `change` receives the post as a ``PostDraft``. Only what differs is rewritten: a changed property
    /// value replaces that value, a new property is added before `:END:`, a removed one loses its line, a
    /// new body replaces the body. A post whose drawer is not right under its headline is rewritten in the
    /// canonical layout (a title in its headline is kept).
    /// - Parameters:
    ///   - id: the post's ID, exactly as written.
    ///   - change: edits the draft.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, or whatever `change` throws.
    public mutating func updatePost(id: String, _ change: (inout PostDraft) throws -> Void) throws {
        let index = try postIndex(id: id)
        let post = posts[index]
        let old = PostDraft(post)
        var new = old
        try change(&new)
        guard new != old else { return }
        let layout = post.layout
        // Without a drawer, a body line `:PROPERTIES:` would be read as the post's drawer: write one first.
        let canonicalLayout =
            (layout.drawer.map { $0.isDirectlyAfterHeadline && $0.isClosed } ?? !Self.opensDrawer(new.escapedBody))
            && layout.bodySegments.count <= 1
        guard canonicalLayout else {
            self = applying([
                ByteEdit(
                    range: layout.start..<layout.contentEnd, replacement: encoded(rewritten(post, as: new, id: id)))
            ])
            return
        }
        var edits = propertyEdits(post: post, from: old, to: new)
        if new.escapedBody != old.escapedBody {
            edits.append(bodyEdit(post: post, body: new.escapedBody))
        }
        self = applying(edits)
    }

    /// Whether a line of `body` is `:PROPERTIES:`, which opens a drawer in a post that has none.
    private static func opensDrawer(_ body: String) -> Bool {
        body.split(separator: "\n").contains { $0.trimmingSpacesAndTabs().uppercased() == ":PROPERTIES:" }
    }

    /// `draft` in the canonical layout. A bare `**` headline with a valid ID becomes `** <ID>`; any other
    /// headline line is kept verbatim, so a title in it survives the rewrite (spec §15 case 4), and an ID
    /// that is not the headline's first token (an invalid legacy `:ID:`, or one that won over the
    /// headline's) is written as `:ID:` so the post keeps it exactly.
    private func rewritten(_ post: Post, as draft: PostDraft, id: String) -> String {
        let rendered = draft.render(id: id)
        let renderedHead = "** \(id)\n:PROPERTIES:\n"
        guard rendered.hasPrefix(renderedHead) else { return rendered }
        let headlineBytes = post.source[post.layout.start..<post.layout.headlineContentEnd]
        let headline = String(decoding: headlineBytes, as: UTF8.self)
        let headlineTokens = headline.drop { $0 == "*" }.tokens()
        // A bare `**` with a valid timestamp ID takes the canonical form `** <ID>`.
        if headlineTokens.isEmpty, OrgTimestamp(id).isValid { return rendered }
        let idInHeadline = headlineTokens.first == id
        return headline + "\n:PROPERTIES:\n" + (idInHeadline ? "" : ":ID: \(id)\n")
            + rendered.dropFirst(renderedHead.count)
    }

    /// Replaces a post's body, keeping its ID and properties.
    /// - Parameters:
    ///   - id: the post's ID.
    ///   - text: the new body (Org markup).
    /// - Throws: ``OrgSocialError/postNotFound(id:)``.
    public mutating func replaceBody(ofPost id: String, with text: String) throws {
        try updatePost(id: id) { $0.body = text }
    }

    /// Sets (or, with `nil` or an empty value, removes) one property of a post.
    /// - Parameters:
    ///   - name: the property name, e.g. `LANG` (not `ID`).
    ///   - value: the new value.
    ///   - id: the post's ID.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, or ``OrgSocialError/invalidInput(field:value:reason:)``
    ///   for `ID` or a name with spaces or colons.
    public mutating func setProperty(_ name: String, to value: String?, inPost id: String) throws {
        let upper = name.uppercased()
        guard upper != "ID" else {
            throw OrgSocialError.invalidInput(
                field: "property", value: name, reason: "a post's ID never changes; replies point to it.")
        }
        guard !upper.isEmpty, !upper.contains(where: { $0 == ":" || $0 == " " || $0 == "\t" || $0.isNewline }) else {
            throw OrgSocialError.invalidInput(
                field: "property name", value: name, reason: "use a single word such as LANG.")
        }
        let value = try value.map { try Check.singleLine($0.trimmingSpacesAndTabs(), field: upper) }
        try updatePost(id: id) { draft in
            try draft.setRawProperty(upper, value: value)
        }
    }

    /// Removes a post (its bytes and the blank line that separated it from the previous one).
    /// - Parameter id: the post's ID.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``.
    ///
    /// When `#+PINNED` names the deleted post (and no other post keeps that ID), the pin is removed too.
    public mutating func deletePost(id: String) throws {
        let index = try postIndex(id: id)
        let post = posts[index]
        var edits: [ByteEdit]
        if index > 0, posts[index - 1].layout.end == post.layout.start {
            edits = [removal(posts[index - 1].layout.contentEnd..<post.layout.contentEnd)]
        } else {
            edits = [removal(post.layout.start..<post.layout.end)]
        }
        if profile.pinned == id, posts.filter({ $0.id == id }).count == 1 {
            edits += profile.keywords.indices.filter { profile.keywords[$0].hasName("PINNED") }.map {
                removal(profile.locations[$0].lineStart..<profile.locations[$0].lineEnd)
            }
        }
        self = applying(edits)
    }

    // MARK: Property and body edits

    private func propertyEdits(post: Post, from old: PostDraft, to new: PostDraft) -> [ByteEdit] {
        let oldValues = Dictionary(old.orderedProperties.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        let newList = new.orderedProperties
        let newNames = Set(newList.map(\.name))
        var edits: [ByteEdit] = []
        var additions = ""
        let locations = post.propertyLocations
        let properties = post.properties
        for (name, value) in newList where oldValues[name] != value {
            // The line that carries the current value, else the first (empty) line of that name.
            let index =
                properties.firstIndex { !$0.value.isEmpty && $0.hasName(name) }
                ?? properties.firstIndex { $0.hasName(name) }
            if let index {
                let location = locations[index]
                edits.append(
                    ByteEdit(range: location.afterKey..<location.contentEnd, replacement: encoded(" " + value)))
            } else {
                additions += ":\(name): \(value)\n"
            }
        }
        for (index, property) in properties.enumerated() where !property.value.isEmpty {
            let upper = property.name.uppercased()
            guard upper != "ID", oldValues[upper] != nil, !newNames.contains(upper) else { continue }
            let location = locations[index]
            edits.append(removal(location.lineStart..<location.lineEnd))
        }
        if !additions.isEmpty {
            if let drawer = post.layout.drawer {
                edits.append(insertion(at: drawer.endLineStart, additions))
            } else {
                edits.append(insertion(at: post.layout.headlineEnd, ":PROPERTIES:\n" + additions + ":END:\n"))
            }
        }
        return edits
    }

    private func bodyEdit(post: Post, body: String) -> ByteEdit {
        let layout = post.layout
        let bodyZoneStart = layout.drawer?.end ?? layout.headlineEnd
        if let segment = layout.bodySegments.first {
            if body.isEmpty { return removal(bodyZoneStart..<layout.contentEnd) }
            return ByteEdit(range: segment, replacement: encoded(body))
        }
        return insertion(at: layout.contentEnd, "\n" + body + "\n")
    }
}

extension PostDraft {
    /// Sets a property by name, on the typed field when it is a known one.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` when a known property's value does not
    ///   have its form (a reference without `#`, a group without a relay URL, …), rather than dropping it.
    mutating func setRawProperty(_ upper: String, value: String?) throws {
        let value = (value?.isEmpty ?? true) ? nil : value
        func typed<T>(_ parse: (String) -> T?, _ form: String) throws -> T? {
            guard let value else { return nil }
            guard let parsed = parse(value) else {
                throw OrgSocialError.invalidInput(field: ":\(upper):", value: value, reason: "it must be \(form).")
            }
            return parsed
        }
        switch upper {
        case "LANG": language = value
        case "TAGS": tags = value?.tokens() ?? []
        case "CLIENT": client = value
        case "REPLY_TO": replyTo = try typed(PostReference.init(parsing:), "<feed URL>#<post ID>")
        case "INCLUDE": include = try typed(PostReference.init(parsing:), "<feed URL>#<post ID>")
        case "POLL_END": pollEnd = value
        case "POLL_OPTION": pollOption = value
        case "GROUP": group = try typed(GroupReference.init(parsing:), "<group name> <relay URL>")
        case "VISIBILITY": visibility = value.map(Visibility.init(rawValue:))
        case "MIGRATION": migration = try typed(Migration.init(parsing:), "<old feed URL> <new feed URL>")
        case "BOT": bot = try typed(BotPayload.init(parsing:), "<type> [parameter …]")
        case "MOOD": mood = value
        default:
            if let index = extraProperties.firstIndex(where: { $0.hasName(upper) }) {
                if let value {
                    extraProperties[index] = Property(name: upper, value: value)
                } else {
                    extraProperties.remove(at: index)
                }
            } else if let value {
                extraProperties.append(Property(name: upper, value: value))
            }
        }
    }
}

// MARK: - Header

extension Feed {
    /// Sets a single-valued header keyword (`TITLE`, `NICK`, `DESCRIPTION`, `PINNED`, …), or removes
    /// every line of it when `value` is `nil` or empty.
    ///
    /// An existing line keeps its spelling and place; only its value changes. A new line goes next to
    /// the keywords it belongs with (order TITLE, NICK, DESCRIPTION, AVATAR, LINK, LOCATION, BIRTHDAY,
    /// LANGUAGE, PINNED, CONTACT, GROUP, FOLLOW).
    /// - Parameters:
    ///   - name: the keyword without `#+`.
    ///   - value: the value, on one line.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` for a value with a line break or
    ///   a bad keyword name.
    public mutating func setKeyword(_ name: String, to value: String?) throws {
        let upper = try Self.checkedKeywordName(name)
        let value = try value.map { try Check.singleLine($0.trimmingSpacesAndTabs(), field: "#+\(upper)") }
        let keywords = profile.keywords
        let locations = profile.locations
        guard let value, !value.isEmpty else {
            let edits = keywords.indices.filter { keywords[$0].hasName(upper) }.map {
                removal(locations[$0].lineStart..<locations[$0].lineEnd)
            }
            self = applying(edits)
            return
        }
        let target =
            keywords.firstIndex { !$0.value.isEmpty && $0.hasName(upper) } ?? keywords.firstIndex { $0.hasName(upper) }
        if let target {
            guard keywords[target].value != value else { return }
            let location = locations[target]
            self = applying([
                ByteEdit(range: location.afterKey..<location.contentEnd, replacement: encoded(" " + value))
            ])
        } else {
            self = applying([keywordInsertion(upper, value)])
        }
    }

    /// Adds a line of a repeatable keyword (`LINK`, `CONTACT`, `FOLLOW`, `GROUP`) after the last line of
    /// the same keyword.
    /// - Parameters:
    ///   - name: the keyword without `#+`.
    ///   - value: the value.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public mutating func addKeyword(_ name: String, value: String) throws {
        let upper = try Self.checkedKeywordName(name)
        let value = try Check.singleLine(value.trimmingSpacesAndTabs(), field: "#+\(upper)")
        guard !value.isEmpty else {
            throw OrgSocialError.invalidInput(field: "#+\(upper)", value: "", reason: "the value is empty.")
        }
        self = applying([keywordInsertion(upper, value)])
    }

    /// Removes the lines of a keyword whose value satisfies `matches`.
    /// - Parameters:
    ///   - name: the keyword without `#+`.
    ///   - matches: picks the lines to remove by their value.
    /// - Returns: how many lines were removed.
    @discardableResult
    public mutating func removeKeywords(_ name: String, where matches: (String) -> Bool) -> Int {
        let keywords = profile.keywords
        let edits = keywords.indices.filter { keywords[$0].hasName(name) && matches(keywords[$0].value) }.map {
            removal(profile.locations[$0].lineStart..<profile.locations[$0].lineEnd)
        }
        self = applying(edits)
        return edits.count
    }

    /// Pins one of the feed's posts (`#+PINNED`).
    /// - Parameter id: the post's ID.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``.
    public mutating func pin(postID id: String) throws {
        _ = try postIndex(id: id)
        try setKeyword("PINNED", to: id)
    }

    /// Removes `#+PINNED`.
    public mutating func unpin() {
        removeKeywords("PINNED") { _ in true }
    }

    /// Follows a feed: adds `#+FOLLOW: [label] url`.
    /// - Parameters:
    ///   - url: the feed's URL (http or https).
    ///   - label: an optional personal label (spaces allowed).
    /// - Throws: ``OrgSocialError/alreadyFollowing(url:)`` or ``OrgSocialError/invalidInput(field:value:reason:)``.
    public mutating func follow(_ url: String, label: String? = nil) throws {
        let url = try Check.url(url, field: "feed URL")
        guard !profile.follows.contains(where: { $0.url == url }) else {
            throw OrgSocialError.alreadyFollowing(url: url)
        }
        let label = try label.map { try Check.singleLine($0.trimmingSpacesAndTabs(), field: "label") }
        try addKeyword("FOLLOW", value: Follow(url: url, label: label).value)
    }

    /// Unfollows: removes every `#+FOLLOW` line whose URL or label is `target`.
    /// - Parameter target: a followed URL or label, exactly as written.
    /// - Throws: ``OrgSocialError/notFollowing(_:)`` when nothing matches.
    public mutating func unfollow(_ target: String) throws {
        let removed = removeKeywords("FOLLOW") { value in
            guard let follow = Follow(value: value) else { return false }
            return follow.url == target || follow.label == target
        }
        if removed == 0 { throw OrgSocialError.notFollowing(target) }
    }

    /// Joins a relay group: adds `#+GROUP: name relay`.
    /// - Parameter group: the group and its relay.
    /// - Throws: ``OrgSocialError/alreadyInGroup(name:)`` or ``OrgSocialError/invalidInput(field:value:reason:)``.
    public mutating func joinGroup(_ group: GroupReference) throws {
        let group = try Check.group(group)
        guard !profile.groups.contains(where: { $0.slug == group.slug && $0.relayURL == group.relayURL }) else {
            throw OrgSocialError.alreadyInGroup(name: group.name)
        }
        try addKeyword("GROUP", value: group.value)
    }

    /// Leaves a group: removes every `#+GROUP` line whose group name matches `name` (as relays match it:
    /// ignoring case, spaces as `-`).
    /// - Parameter name: the group's name.
    /// - Throws: ``OrgSocialError/notInGroup(name:)`` when nothing matches.
    public mutating func leaveGroup(named name: String) throws {
        let slug = GroupReference(name: name, relayURL: "").slug
        let removed = removeKeywords("GROUP") { GroupReference(parsing: $0)?.slug == slug }
        if removed == 0 { throw OrgSocialError.notInGroup(name: name) }
    }

    // MARK: Placement

    private static let keywordOrder = Profile.knownKeywords

    private static func checkedKeywordName(_ name: String) throws -> String {
        let upper = name.uppercased()
        guard !upper.isEmpty, !upper.contains(where: { $0 == ":" || $0 == " " || $0 == "\t" || $0.isNewline }) else {
            throw OrgSocialError.invalidInput(field: "keyword", value: name, reason: "use a single word such as TITLE.")
        }
        return upper
    }

    /// Where a new `#+NAME: value` line goes: after the last line of the same keyword, else after the
    /// last keyword that comes before it in the usual order, else before the first keyword, else at the top.
    private func keywordInsertion(_ upper: String, _ value: String) -> ByteEdit {
        let line = "#+\(upper): \(value)\n"
        let keywords = profile.keywords
        let locations = profile.locations
        if let same = keywords.lastIndex(where: { $0.hasName(upper) }) {
            return insertion(at: locations[same].lineEnd, line)
        }
        let rank = Self.keywordOrder.firstIndex(of: upper) ?? Self.keywordOrder.count
        let before = keywords.indices.last { index in
            (Self.keywordOrder.firstIndex(of: keywords[index].name.uppercased()) ?? Int.max) <= rank
        }
        if let before {
            return insertion(at: locations[before].lineEnd, line)
        }
        if let first = locations.first {
            return insertion(at: first.lineStart, line)
        }
        return insertion(at: layout.contentStart, line)
    }
}
