extension RelayListing {
    /// Merges a feed's four interaction lists into its notifications, newest first, ties in kind order
    /// (mention, reaction, reply, boost) and then in each list's own order.
    ///
    /// Each store passes closures that read one list with its own SQL; a list whose kind is not in `kinds`
    /// is never read.
    ///
    /// - Parameters:
    ///   - feed: The feed asked about (each notice's `targetFeed`).
    ///   - kinds: The kinds to read and count.
    ///   - mentions: Reads the posts mentioning `feed`.
    ///   - reactions: Reads the moods on `feed`'s posts, poll votes included, with the mood and the post reacted to.
    ///   - replies: Reads the direct replies to `feed`'s posts, with the post replied to.
    ///   - boosts: Reads the boosts of `feed`'s posts, with the post boosted.
    /// - Returns: The merged notices and the count of each kind asked for.
    /// - Throws: What a reading closure throws.
    package static func notifications(
        of feed: String,
        kinds: Set<InteractionNotice.Kind>,
        mentions: () throws -> [RelayListEntry],
        reactions: () throws -> [(entry: RelayListEntry, mood: String, parent: String)],
        replies: () throws -> [(entry: RelayListEntry, parent: String)],
        boosts: () throws -> [(entry: RelayListEntry, boosted: String)]
    ) rethrows -> FeedNotifications {
        var items: [(entry: RelayListEntry, notice: InteractionNotice)] = []
        var counts: [InteractionNotice.Kind: Int] = [:]
        if kinds.contains(.mention) {
            let rows = try mentions()
            counts[.mention] = rows.count
            items += rows.map { ($0, InteractionNotice(kind: .mention, post: $0.url, targetFeed: feed)) }
        }
        if kinds.contains(.reaction) {
            let rows = try reactions()
            counts[.reaction] = rows.count
            items += rows.map { row in
                let notice = InteractionNotice(
                    kind: .reaction, post: row.entry.url, emoji: row.mood, parent: row.parent, targetFeed: feed)
                return (row.entry, notice)
            }
        }
        if kinds.contains(.reply) {
            let rows = try replies()
            counts[.reply] = rows.count
            items += rows.map { row in
                (row.entry, InteractionNotice(kind: .reply, post: row.entry.url, parent: row.parent, targetFeed: feed))
            }
        }
        if kinds.contains(.boost) {
            let rows = try boosts()
            counts[.boost] = rows.count
            items += rows.map { row in
                (
                    row.entry,
                    InteractionNotice(kind: .boost, post: row.entry.url, boosted: row.boosted, targetFeed: feed)
                )
            }
        }
        let sorted = items.enumerated().sorted { lhs, rhs in
            if lhs.element.entry.isOrdered(before: rhs.element.entry) { return true }
            if rhs.element.entry.isOrdered(before: lhs.element.entry) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element.notice)
        return FeedNotifications(notices: sorted, counts: counts)
    }
}
