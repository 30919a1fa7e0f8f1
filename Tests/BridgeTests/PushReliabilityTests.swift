import Bridge
import FakeMastodon
import Foundation
import TestSupport
import Testing
import TootClient

/// 100 posts with threads, split posts, polls, boosts, then edits and deletes: the server ends up exactly
/// as the feed says, with no status more and none missing.
@Suite struct PushReliabilityTests {
    /// What post `number` is.
    enum Kind: Equatable { case plain, long, poll, boost, reply }

    static func kind(_ number: Int) -> Kind {
        if number % 13 == 0 { return .boost }
        if number % 11 == 0 { return .poll }
        if number % 10 == 0 { return .long }
        if number % 7 == 0 { return .reply }
        return .plain
    }

    static func id(_ number: Int) -> String {
        String(format: "2026-05-01T%02d:%02d:00+0000", 8 + number / 60, number % 60)
    }

    /// Deleted in the second round: every ninth post nothing refers to.
    static func isDeleted(_ number: Int) -> Bool {
        number % 9 == 0 && kind(number + 1) != .boost && kind(number + 1) != .reply && kind(number) != .boost
    }

    /// Edited in the second round: every fifth plain post.
    static func isEdited(_ number: Int) -> Bool { number % 5 == 0 && kind(number) == .plain }

    static let longText = String(repeating: "A long post that a 500 character server splits in two. ", count: 12)

    /// The feed of round 1 or 2.
    static func feedText(round: Int) -> String {
        var posts: [String] = []
        for number in 1...100 where round == 1 || !isDeleted(number) {
            let previous = "\(testFeedURL)#\(id(number - 1))"
            switch kind(number) {
            case .plain:
                posts.append(post(id(number), "Post \(number)" + (round == 2 && isEdited(number) ? " edited" : "")))
            case .long: posts.append(post(id(number), longText + "\(number)"))
            case .poll:
                posts.append(
                    post(id(number), "Poll \(number)?\n- [ ] Yes\n- [ ] No", [("POLL_END", "2026-05-03T00:00:00+0000")])
                )
            case .boost: posts.append(post(id(number), "", [("INCLUDE", previous)]))
            case .reply: posts.append(post(id(number), "Reply \(number)", [("REPLY_TO", previous)]))
            }
        }
        return feed(posts: posts)
    }

    @Test(arguments: [FakeMastodonConfiguration.mastodon45, .gotosocial])
    func aHundredPostsThenEditsAndDeletesLeaveExactlyTheFeedsStatuses(_ preset: FakeMastodonConfiguration)
        async throws
    {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let options = PushOptions(maxNewPosts: 100)
                let first = try await harness.push(Self.feedText(round: 1), options)
                #expect(first.entries.filter { $0.action == .fail || $0.action == .skip }.isEmpty)
                try await check(harness, round: 1, preset: preset)
                let second = try await harness.push(Self.feedText(round: 2), options)
                #expect(second.counts.edited == (1...100).filter { Self.isEdited($0) && !Self.isDeleted($0) }.count)
                #expect(second.counts.deleted == (1...100).filter(Self.isDeleted).count)
                try await check(harness, round: 2, preset: preset)
                #expect(try await harness.push(Self.feedText(round: 2), options).entries.isEmpty)
            }
        }
    }

    /// The server's statuses against the feed of `round`.
    func check(_ harness: PushHarness, round: Int, preset: FakeMastodonConfiguration) async throws {
        let mappings = try await harness.state.mappings(feed: testFeedURL, account: harness.account.name)
        let byPost = Dictionary(uniqueKeysWithValues: mappings.map { ($0.postID, $0) })
        let all = harness.fake.storage.statuses
        let own = harness.statuses.filter { $0.reblogOf == nil }
        #expect(Set(own.map(\.id)) == Set(mappings.flatMap { $0.parts.map(\.statusID) }))
        #expect(own.count == mappings.reduce(0) { $0 + $1.parts.count })
        var boosts = 0
        for number in 1...100 {
            let mapping = byPost[Self.id(number)]
            if round == 2 && Self.isDeleted(number) || Self.kind(number) == .boost {
                #expect(mapping == nil, "post \(number)")
            }
            if round == 2 && Self.isDeleted(number) { continue }
            let parts = mapping?.parts.compactMap { all[$0.statusID] } ?? []
            switch Self.kind(number) {
            case .plain:
                let edited = round == 2 && Self.isEdited(number) ? " edited" : ""
                #expect(parts.map(\.text) == ["Post \(number)\(edited)"])
            case .long:
                #expect(parts.count == (preset.maxCharacters < Self.longText.count ? 2 : 1), "post \(number)")
                for index in parts.indices.dropFirst() { #expect(parts[index].inReplyToID == parts[index - 1].id) }
            case .poll:
                #expect(parts.first?.poll?.options == ["Yes", "No"])
            case .reply:
                let parent = byPost[Self.id(number - 1)]?.parts.last?.statusID
                #expect(parts.first?.inReplyToID == parent, "post \(number)")
            case .boost:
                boosts += 1
                let target = try #require(byPost[Self.id(number - 1)]?.parts.first?.statusID)
                #expect(all.values.filter { $0.reblogOf == target && $0.accountID == harness.fake.user.id }.count == 1)
            }
        }
        #expect(harness.statuses.filter { $0.reblogOf != nil }.count == boosts)
    }
}
