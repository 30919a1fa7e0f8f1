package import Foundation
package import OrgSocial

/// One parsed post reduced to what the relay stores (`relay-api.md` §4.5, §5), with a hash of all of it.
package struct IndexedPost: Sendable {
    /// The ID exactly as the parser gives it.
    package var postID: String
    /// The body, stripped.
    package var content: String
    /// `:LANG:`, or empty.
    package var lang: String
    /// `:TAGS:` as written (space separated), or empty.
    package var tags: String
    /// The tags, case-folded, for whole-word tag search.
    package var foldedTags: [String]
    /// `:CLIENT:`, or empty.
    package var client: String
    /// `:REPLY_TO:` as written, or `nil`.
    package var replyTo: String?
    /// `:MOOD:`, or empty.
    package var mood: String
    /// The slug of `:GROUP:` (the part before the first `http`), whether or not this relay enables that
    /// group: the queries filter by the enabled groups, so the index does not depend on `--groups`. `nil`
    /// when the property names another relay than the one indexing (see
    /// ``ConfiguredGroup/slug(ofProperty:relayHost:)``).
    package var groupSlug: String?
    /// `:INCLUDE:` as written, or `nil`.
    package var include: String?
    /// `:POLL_END:` when it parses.
    package var pollEnd: Date?
    /// `:POLL_OPTION:`, or `nil`.
    package var pollOption: String?
    /// The `- [ ] text` options of the body, without duplicates.
    package var options: [String]
    /// The `[[org-social:URL][text]]` mentions: the URL cut at `#`, and the text.
    package var mentions: [(feed: String, nickname: String)]
    /// The parsed ID instant, when it parses.
    package var instant: Date?
    /// A hash of every field above.
    package var hash: String
    /// The text the full-text index holds: the case-folded content and tags.
    package var searchText: String

    /// Reads `post`; `nil` when it has no ID.
    ///
    /// - Parameters:
    ///   - post: The parsed post.
    ///   - relayHost: The indexing relay's `--site-domain`, which a `:GROUP:` must name to count in its
    ///     groups; `nil` counts every relay URL, as the reference relay does.
    package init?(_ post: Post, relayHost: String? = nil) {
        guard let id = post.id, !id.isEmpty else { return nil }
        postID = id
        content = RelaySearchText.strip(post.body)
        lang = post.value(of: "LANG") ?? ""
        tags = post.value(of: "TAGS") ?? ""
        foldedTags = Array(Set(tags.split(whereSeparator: \.isWhitespace).map { RelaySearchText.fold(String($0)) }))
            .sorted()
        client = post.value(of: "CLIENT") ?? ""
        replyTo = post.value(of: "REPLY_TO")
        mood = post.value(of: "MOOD") ?? ""
        include = post.value(of: "INCLUDE")
        pollOption = post.value(of: "POLL_OPTION")
        pollEnd = post.value(of: "POLL_END").flatMap { OrgTimestamp($0).sortInstant }
        groupSlug = post.value(of: "GROUP").flatMap { ConfiguredGroup.slug(ofProperty: $0, relayHost: relayHost) }
        var seenOptions = Set<String>()
        options = post.pollOptions.filter { seenOptions.insert($0).inserted }
        mentions = post.mentions.compactMap { mention in
            guard let feed = mention.notifiedFeedURL, let name = mention.name else { return nil }
            return (feed, name)
        }
        instant = OrgTimestamp(id).sortInstant

        var hasher = RelayHash()
        for field in [content, lang, tags, client, replyTo, mood, groupSlug, include, pollOption] {
            hasher.combine(field)
        }
        hasher.combine(pollEnd.map { String($0.timeIntervalSince1970) })
        for option in options { hasher.combine(option) }
        for mention in mentions {
            hasher.combine(mention.feed)
            hasher.combine(mention.nickname)
        }
        hash = hasher.hex
        searchText = RelaySearchText.fold(content) + "\n" + RelaySearchText.fold(tags)
    }

    /// The part of a post URL before its first `#`: the feed, as the read endpoints keyed by a post take
    /// it from their `post` parameter (the whole text when it has no `#`).
    package static func feed(of reference: String) -> String {
        String(reference.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0])
    }

    /// The feeds this post points at: those of its `REPLY_TO` (a reply, reaction or vote) and `INCLUDE`
    /// (a boost) posts, and the feeds it mentions. Their answers change when the post does.
    package var pointedAtFeeds: Set<String> {
        var feeds = Set(mentions.map(\.feed))
        for reference in [replyTo, include].compactMap({ $0 }) { feeds.insert(Self.feed(of: reference)) }
        return feeds
    }

    /// The target feed of a `feed#id` reference, when it splits into exactly two parts (§2.19).
    package static func targetFeed(of reference: String) -> String? {
        let parts = reference.split(separator: "#", omittingEmptySubsequences: false)
        return parts.count == 2 ? String(parts[0]) : nil
    }
}
