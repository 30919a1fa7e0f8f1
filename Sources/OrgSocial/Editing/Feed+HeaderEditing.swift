import Foundation

/// Header edits: single- and multi-valued keywords, placed next to the keywords they belong with.
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

    /// Adds a `#+NAME: value` line after the last line of the same keyword, else after the header's last
    /// keyword line whatever its keyword (the official engine's placement), or where
    /// ``addKeyword(_:value:)`` would put it when the header has no keyword yet.
    /// - Parameters:
    ///   - name: the keyword without `#+`.
    ///   - value: the value.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    package mutating func addKeywordAtHeaderEnd(_ name: String, value: String) throws {
        let upper = try Self.checkedKeywordName(name)
        let value = try Check.singleLine(value.trimmingSpacesAndTabs(), field: "#+\(upper)")
        guard !value.isEmpty else {
            throw OrgSocialError.invalidInput(field: "#+\(upper)", value: "", reason: "the value is empty.")
        }
        guard let last = profile.locations.last, !profile.keywords.contains(where: { $0.hasName(upper) }) else {
            self = applying([keywordInsertion(upper, value)])
            return
        }
        self = applying([insertion(at: last.lineEnd, "#+\(upper): \(value)\n")])
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

    /// Follows a feed: adds `#+FOLLOW: [label] url`, the URL in its canonical spelling (``FeedURL``).
    /// - Parameters:
    ///   - url: the feed's URL (http or https).
    ///   - label: an optional personal label, one word: readers take the line apart at spaces, so a label
    ///     with a space or tab is refused.
    /// - Throws: ``OrgSocialError/alreadyFollowing(url:)`` when the feed follows `url` (in any spelling of
    ///   it, such as `HTTP://HOST/social.org` for `http://host/social.org`) or
    ///   ``OrgSocialError/invalidInput(field:value:reason:)``.
    /// - Returns: the URL as the `#+FOLLOW` line spells it.
    @discardableResult
    public mutating func follow(_ url: String, label: String? = nil) throws -> String {
        let url = FeedURL.normalized(try Check.url(url, field: "feed URL"))
        if let followed = profile.follows.first(where: { FeedURL.same($0.url, url) }) {
            throw OrgSocialError.alreadyFollowing(url: followed.url)
        }
        let label = try label.map(Check.followLabel)
        try addKeyword("FOLLOW", value: Follow(url: url, label: label).value)
        return url
    }

    /// Unfollows: removes every `#+FOLLOW` line whose URL (in any spelling, ``FeedURL/same(_:_:)``) or label
    /// is `target`.
    /// - Parameter target: a followed URL or label, exactly as written.
    /// - Throws: ``OrgSocialError/notFollowing(_:)`` when nothing matches.
    public mutating func unfollow(_ target: String) throws {
        let removed = removeKeywords("FOLLOW") { value in
            guard let follow = Follow(value: value) else { return false }
            return follow.label == target || (target.isHTTPURL && FeedURL.same(follow.url, target))
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
    func keywordInsertion(_ upper: String, _ value: String) -> ByteEdit {
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
