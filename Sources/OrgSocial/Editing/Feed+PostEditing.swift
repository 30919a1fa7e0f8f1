public import Foundation

/// Post edits: append, update and delete posts, their properties and bodies, in place.
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
        OrgTimestamp.format(firstFreeMoment(for: date, timeZone: timeZone), timeZone: timeZone)
    }

    /// The first moment at or after `date`, a whole number of seconds after it, whose ID no post of the feed
    /// has: `date` itself when its second is free. A writer that would rather not date a post ahead of the
    /// clock waits until then.
    /// - Parameters:
    ///   - date: the post's time.
    ///   - timeZone: the zone IDs are written in.
    /// - Returns: the moment whose ID ``uniqueID(for:timeZone:)`` gives.
    package func firstFreeMoment(for date: Date, timeZone: TimeZone = .current) -> Date {
        // An ID written nowhere in the file is no post's ID: found without reading every post of a big feed.
        var used: Set<String>?
        var moment = date
        while true {
            let id = OrgTimestamp.format(moment, timeZone: timeZone)
            guard ByteSearch.firstRange(of: Array(id.utf8), in: bytes) != nil else { return moment }
            let ids = used ?? Set(posts.compactMap(\.id))
            used = ids
            guard ids.contains(id) else { return moment }
            moment += 1
        }
    }

    func endsWithBlankLine() -> Bool {
        var i = bytes.count - 1
        while i >= 0, bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\r") { i -= 1 }
        var newlines = 0
        var j = i + 1
        while j < bytes.count {
            if bytes[j] == UInt8(ascii: "\n")
                || (bytes[j] == UInt8(ascii: "\r") && (j + 1 == bytes.count || bytes[j + 1] != UInt8(ascii: "\n")))
            {
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
    /// new body replaces the body. This holds for a drawer out of place too (after blank lines, or after or
    /// inside the body: every byte outside what is edited stays where it is, blank lines included; a new
    /// body takes the place of the body's first piece, and the others are removed). A post without a
    /// drawer whose new body would open one is rewritten in the canonical layout (a title in its headline
    /// is kept); a post whose drawer has no `:END:` is refused, since its properties cannot be told from its
    /// text.
    /// - Parameters:
    ///   - id: the post's ID, exactly as written.
    ///   - change: edits the draft.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, ``OrgSocialError/duplicatePostID(id:lines:)`` when
    ///   several posts have the ID, ``OrgSocialError/unclosedDrawer(id:line:)`` when its drawer has no
    ///   `:END:`, or whatever `change` throws.
    public mutating func updatePost(id: String, _ change: (inout PostDraft) throws -> Void) throws {
        let index = try postIndex(id: id)
        let post = posts[index]
        if let drawer = post.layout.drawer, !drawer.isClosed {
            throw OrgSocialError.unclosedDrawer(id: id, line: post.line)
        }
        let old = PostDraft(post)
        var new = old
        try change(&new)
        guard new != old else { return }
        let layout = post.layout
        // Without a drawer, a body line `:PROPERTIES:` would be read as the post's drawer: write one first.
        let canonicalLayout = layout.drawer.map(\.isClosed) ?? !Self.opensDrawer(new.escapedBody)
        guard canonicalLayout else {
            self = applying([
                ByteEdit(
                    range: layout.start..<layout.contentEnd, replacement: encoded(rewritten(post, as: new, id: id)))
            ])
            return
        }
        var edits = propertyEdits(post: post, from: old, to: new)
        if new.escapedBody != old.escapedBody {
            edits += bodyEdits(post: post, body: new.escapedBody)
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
    ///
    /// A poll keeps its options: when `text` has no `- [ ] Option` lines of its own, the poll's option
    /// lines follow it, as they were written, after a blank line (a poll without its options would be
    /// read as a plain post and lose its votes' meaning).
    /// - Parameters:
    ///   - id: the post's ID.
    ///   - text: the new body (Org markup).
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, ``OrgSocialError/duplicatePostID(id:lines:)``,
    ///   ``OrgSocialError/unclosedDrawer(id:line:)``.
    public mutating func replaceBody(ofPost id: String, with text: String) throws {
        try updatePost(id: id) { draft in
            let optionLines = draft.body.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { PollOptionLine.option(in: $0) != nil }
            if !optionLines.isEmpty, PollOptionLine.options(in: text, limit: 1).isEmpty {
                var kept = text
                while kept.last?.isNewline == true { kept.removeLast() }
                draft.body = kept + "\n\n" + optionLines.joined(separator: "\n")
            } else {
                draft.body = text
            }
        }
    }

    /// The post with this ID.
    /// - Parameter id: the ID, exactly as written.
    /// - Returns: the post.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, or ``OrgSocialError/duplicatePostID(id:lines:)`` when
    ///   several posts have it (an edit would not know which one is meant).
    public func existingPost(id: String) throws -> Post {
        posts[try postIndex(id: id)]
    }

    /// Sets (or, with `nil` or an empty value, removes) one property of a post.
    /// - Parameters:
    ///   - name: the property name, e.g. `LANG` (not `ID`).
    ///   - value: the new value.
    ///   - id: the post's ID.
    /// - Throws: ``OrgSocialError/postNotFound(id:)``, or ``OrgSocialError/invalidInput(field:value:reason:)``
    ///   for `ID`, a drawer marker's name (`END`, `PROPERTIES`), a name with spaces or colons, or a `LANG`
    ///   that is not a language code.
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
        guard DrawerMarker(rawValue: upper) == nil else {
            throw OrgSocialError.invalidInput(
                field: "property name", value: name,
                reason: "`:\(upper):` marks the properties drawer itself; use another name, such as LANG.")
        }
        let value = try value.map { try Check.singleLine($0.trimmingSpacesAndTabs(), field: upper) }
        try updatePost(id: id) { draft in
            // A post's language is checked as the composers check it.
            let checked = upper == "LANG" && value?.isEmpty == false ? try value.map(Check.language) : value
            try draft.setRawProperty(upper, value: checked)
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

    private func bodyEdits(post: Post, body: String) -> [ByteEdit] {
        let layout = post.layout
        let bodyZoneStart = layout.drawer?.end ?? layout.headlineEnd
        let segments = layout.bodySegments
        guard let first = segments.first else { return [insertion(at: layout.contentEnd, "\n" + body + "\n")] }
        if segments.count == 1, first.lowerBound >= bodyZoneStart {
            return [
                body.isEmpty
                    ? removal(bodyZoneStart..<layout.contentEnd) : ByteEdit(range: first, replacement: encoded(body))
            ]
        }
        // Body text before the drawer (a drawer after or inside the body): the text is replaced where it is.
        return [body.isEmpty ? removal(first) : ByteEdit(range: first, replacement: encoded(body))]
            + segments.dropFirst().map { removal($0) }
    }
}
