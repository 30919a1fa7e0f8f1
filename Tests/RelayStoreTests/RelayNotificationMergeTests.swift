import RelayCore
import Testing

/// `RelayListing.notifications`: the merge of a feed's four lists both storage engines answer with.
struct RelayNotificationMergeTests {
    /// The feed asked about.
    static let feed = "https://a.example/social.org"

    /// A list entry of `b.example` at `createdAt`.
    static func entry(_ id: String, at createdAt: Double) -> RelayListEntry {
        RelayListEntry(url: "https://b.example/social.org#\(id)", createdAt: createdAt, postID: id)
    }

    /// Newest first across the kinds; an exact tie keeps kind order (mention, reaction, reply, boost).
    @Test func mergesNewestFirstAndBreaksTiesByKind() {
        let same = Self.entry("2026-01-02T00:00:00+0000", at: 200)
        let merged = RelayListing.notifications(
            of: Self.feed, kinds: Set(InteractionNotice.Kind.allCases),
            mentions: { [Self.entry("2026-01-01T00:00:00+0000", at: 100), same] },
            reactions: { [(same, "👍", "\(Self.feed)#p")] },
            replies: { [(Self.entry("2026-01-03T00:00:00+0000", at: 300), "\(Self.feed)#p")] },
            boosts: { [(same, "\(Self.feed)#p")] })
        #expect(merged.notices.map(\.kind) == [.reply, .mention, .reaction, .boost, .mention])
        #expect(merged.notices.map(\.post).first == Self.entry("2026-01-03T00:00:00+0000", at: 300).url)
        #expect(merged.notices[2].emoji == "👍")
        #expect(merged.notices[3].boosted == "\(Self.feed)#p")
        #expect(merged.notices.allSatisfy { $0.targetFeed == Self.feed })
        #expect(merged.counts == [.mention: 2, .reaction: 1, .reply: 1, .boost: 1])
    }

    /// A kind not asked for is neither read nor counted.
    @Test func readsOnlyTheKindsAskedFor() {
        var read: [String] = []
        let merged = RelayListing.notifications(
            of: Self.feed, kinds: [.reply],
            mentions: {
                read.append("mentions")
                return []
            },
            reactions: {
                read.append("reactions")
                return []
            },
            replies: {
                read.append("replies")
                return [(Self.entry("x", at: 1), "\(Self.feed)#p")]
            },
            boosts: {
                read.append("boosts")
                return []
            })
        #expect(read == ["replies"])
        #expect(merged.counts == [.reply: 1])
        #expect(merged.notices.map(\.parent) == ["\(Self.feed)#p"])
    }
}
