extension Feed {
    /// A new feed: the header keywords given, a blank line and an empty `* Posts` section, with LF line
    /// breaks and a final line break.
    ///
    /// ```swift
    /// let feed = try Feed.makeNew(title: "Ana's journal", nick: "ana")
    /// // #+TITLE: Ana's journal
    /// // #+NICK: ana
    /// //
    /// // * Posts
    /// ```
    /// - Parameters:
    ///   - title: `#+TITLE` (required, one line).
    ///   - nick: `#+NICK` (required, no spaces).
    ///   - description: `#+DESCRIPTION`.
    ///   - avatar: `#+AVATAR`, an http(s) URL.
    ///   - languages: `#+LANGUAGE` codes.
    ///   - links: `#+LINK` URLs.
    ///   - follows: `#+FOLLOW` entries.
    /// - Returns: The new feed.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` naming the bad value.
    public static func makeNew(
        title: String, nick: String, description: String? = nil, avatar: String? = nil, languages: [String] = [],
        links: [String] = [], follows: [Follow] = []
    ) throws -> Feed {
        let title = try Check.singleLine(title.trimmingSpacesAndTabs(), field: "title")
        guard !title.isEmpty else {
            throw OrgSocialError.invalidInput(field: "title", value: "", reason: "a feed needs a title.")
        }
        let nick = nick.trimmingSpacesAndTabs()
        guard OrgSyntax.isNick(nick) else {
            throw OrgSocialError.invalidInput(field: "nick", value: nick, reason: "a nick is one word without spaces.")
        }
        var text = "#+TITLE: \(title)\n#+NICK: \(nick)\n"
        if let description = try description.map({
            try Check.singleLine($0.trimmingSpacesAndTabs(), field: "description")
        }),
            !description.isEmpty
        {
            text += "#+DESCRIPTION: \(description)\n"
        }
        if let avatar, !avatar.isEmpty { text += "#+AVATAR: \(try Check.url(avatar, field: "avatar"))\n" }
        for link in links { text += "#+LINK: \(try Check.url(link, field: "link"))\n" }
        if !languages.isEmpty { text += "#+LANGUAGE: \(try languages.map(Check.language).joined(separator: " "))\n" }
        for follow in follows {
            _ = try Check.url(follow.url, field: "followed feed URL")
            text += "#+FOLLOW: \(follow.value)\n"
        }
        text += "\n* Posts\n"
        return OrgSocialParser().parse(text)
    }
}
