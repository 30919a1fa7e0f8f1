import Bridge
import FakeMastodon
import Foundation
import TestSupport
import Testing
import TootClient

/// `bridge push` against the fake server: order, limits, the mapping rules, edits, deletes.
@Suite struct BridgePusherTests {
    /// Mastodon 4.5, GoToSocial and Akkoma: the presets that take text posts.
    static let textPresets = [FakeMastodonConfiguration.mastodon45, .gotosocial, .akkoma]

    @Test(arguments: textPresets)
    func newPostsGoOldestFirstAndOnlyThoseAfterTheAccountWasAdded(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let text = feed(
                    post("2026-04-30T10:00:00+0000", "Before the account was added"),
                    post("2026-05-01T10:02:00+0000", "Second"),
                    post("2026-05-01T10:01:00+0000", "First"),
                    post("2026-05-01T10:03:00+0000", "Third"))
                let report = try await harness.push(text)
                #expect(harness.statuses.map(\.text) == ["First", "Second", "Third"])
                #expect(report.counts.pushed == 3)
                let mapped = try await harness.state.mappings(feed: testFeedURL, account: harness.account.name)
                #expect(
                    mapped.map(\.postID).sorted() == [
                        "2026-05-01T10:01:00+0000", "2026-05-01T10:02:00+0000",
                        "2026-05-01T10:03:00+0000",
                    ])
                #expect(try await harness.push(text).entries.isEmpty)
                try await harness.push(text, PushOptions(all: true))
                #expect(harness.statuses.count == 4)
                #expect(harness.statuses.last?.text == "Before the account was added")
            }
        }
    }

    @Test func sinceMirrorsFromTheGivenDate() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(
                    post("2026-04-20T10:00:00+0000", "Too old"), post("2026-04-29T10:00:00+0000", "Recent enough"))
                try await harness.push(text, PushOptions(since: Date(timeIntervalSince1970: 1_777_300_000)))
                #expect(harness.statuses.map(\.text) == ["Recent enough"])
            }
        }
    }

    @Test func maxLimitsTheNewPostsOfOneRun() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(
                    post("2026-05-01T10:01:00+0000", "One"), post("2026-05-01T10:02:00+0000", "Two"),
                    post("2026-05-01T10:03:00+0000", "Three"), post("2026-05-01T10:04:00+0000", "Four"),
                    post("2026-05-01T10:05:00+0000", "Five"))
                try await harness.push(text, PushOptions(maxNewPosts: 2))
                #expect(harness.statuses.map(\.text) == ["One", "Two"])
                try await harness.push(text, PushOptions(maxNewPosts: 2))
                try await harness.push(text, PushOptions(maxNewPosts: 2))
                #expect(harness.statuses.map(\.text) == ["One", "Two", "Three", "Four", "Five"])
            }
        }
    }

    @Test func aDryRunSendsNothingAndReportsEachPartAsTheServerCountsIt() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(
                    post("2026-05-01T10:01:00+0000", "CW: spoilers\nSee https://example.org/a/very/long/path/indeed"),
                    post(
                        "2026-05-01T10:02:00+0000", "A reply", [("REPLY_TO", "\(testFeedURL)#2026-05-01T10:01:00+0000")]
                    ))
                let report = try await harness.push(text, PushOptions(dryRun: true))
                #expect(report.dryRun)
                #expect(harness.requests("POST", "/api/v1/statuses") == 0)
                #expect(try await harness.state.mappings(feed: testFeedURL, account: harness.account.name).isEmpty)
                let first = try #require(report.entries.first?.statuses.first)
                #expect(first.text == "See https://example.org/a/very/long/path/indeed")
                #expect(first.spoilerText == "spoilers")
                #expect(first.characters == "spoilers".count + "See ".count + 23)
                #expect(report.entries.map(\.action) == [.create, .create])
                #expect(report.entries.last?.statuses.first?.text == "A reply")
            }
        }
    }

    @Test(arguments: textPresets)
    func theMappingRulesOfTheIssue(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let own = "\(testFeedURL)#2026-05-01T10:01:00+0000"
                let text = feed(
                    post(
                        "2026-05-01T10:01:00+0000", "CW: food\nSoup *tonight*",
                        [("LANG", "en"), ("TAGS", "cooking org-social")]),
                    post("2026-05-01T10:02:00+0000", "Thread reply", [("REPLY_TO", own)]),
                    post(
                        "2026-05-01T10:03:00+0000", "Nice post",
                        [("REPLY_TO", "https://bob.example/social.org#2026-04-01T00:00:00+0000")]),
                    post("2026-05-01T10:04:00+0000", "", [("INCLUDE", own)]),
                    post(
                        "2026-05-01T10:05:00+0000", "",
                        [("INCLUDE", "https://bob.example/social.org#2026-04-02T00:00:00+0000")]),
                    post(
                        "2026-05-01T10:06:00+0000", "So true",
                        [("INCLUDE", "https://bob.example/social.org#2026-04-03T00:00:00+0000")]),
                    post(
                        "2026-05-01T10:07:00+0000", "Tea or coffee?\n- [ ] Tea\n- [ ] Coffee",
                        [("POLL_END", "2026-05-03T12:00:00+0000")]),
                    post("2026-05-01T10:08:00+0000", "", [("REPLY_TO", own), ("MOOD", "❤")]),
                    post(
                        "2026-05-01T10:09:00+0000", "Secret [[org-social:https://bob.example/social.org][bob]]",
                        [("VISIBILITY", "mention")]),
                    post("2026-05-01T10:10:00+0000", "Not for Mastodon", [("TAGS", "nobridge")]),
                    post("2026-05-01T10:11:00+0000", "Pulled earlier", [("CLIENT", "orgsocial-bridge")]),
                    pinned: "2026-05-01T10:01:00+0000")
                let report = try await harness.push(text)
                let statuses = harness.statuses
                let byText = Dictionary(statuses.map { ($0.text, $0) }, uniquingKeysWith: { first, _ in first })
                let soup = try #require(byText["Soup tonight\n\n#cooking #org_social"])
                #expect(soup.spoilerText == "food")
                #expect(soup.language == "en")
                #expect(soup.pinned)
                #expect(byText["Thread reply"]?.inReplyToID == soup.id)
                #expect(
                    byText["Nice post\n\nIn reply to https://bob.example/social.org#2026-04-01T00:00:00+0000"] != nil)
                #expect(byText["Boosted: https://bob.example/social.org#2026-04-02T00:00:00+0000"] != nil)
                #expect(byText["So true\n\nhttps://bob.example/social.org#2026-04-03T00:00:00+0000"] != nil)
                let poll = try #require(byText["Tea or coffee?"]?.poll)
                #expect(poll.options == ["Tea", "Coffee"])
                let reblog = try #require(harness.fake.storage.statuses.values.first { $0.reblogOf == soup.id })
                #expect(reblog.accountID == harness.fake.user.id)
                #expect(harness.fake.storage.statuses[soup.id]?.favouritedBy.contains(harness.fake.user.id) == true)
                #expect(
                    !statuses.contains {
                        $0.text.contains("Secret") || $0.text.contains("Not for") || $0.text.contains("Pulled")
                    })
                let skipped = report.entries.filter { $0.action == .skip }.map(\.postID)
                #expect(
                    skipped == ["2026-05-01T10:09:00+0000", "2026-05-01T10:10:00+0000", "2026-05-01T10:11:00+0000"])
                #expect(try await harness.push(text).entries.filter { $0.action != .skip }.isEmpty)
                #expect(statuses.count == harness.statuses.count)
            }
        }
    }

    @Test func aPostWithNothingToSayIsSkippedInsteadOfRefused() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(post("2026-05-01T10:01:00+0000", "", [("POLL_END", "2026-05-03T12:00:00+0000")]))
                let report = try await harness.push(text)
                #expect(report.entries.map(\.action) == [.skip])
                #expect(harness.requests("POST", "/api/v1/statuses") == 0)
            }
        }
    }

    @Test func repliesToOthersAreLeftOutWithRepliesSkip() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(
                    post(
                        "2026-05-01T10:01:00+0000", "Hi",
                        [("REPLY_TO", "https://bob.example/social.org#2026-04-01T00:00:00+0000")]))
                let report = try await harness.push(text, PushOptions(replies: .skip))
                #expect(harness.statuses.isEmpty)
                #expect(report.entries.map(\.action) == [.skip])
            }
        }
    }

    @Test func mentionPostsGoAsDirectStatusesWhenConfigured() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let text = feed(post("2026-05-01T10:01:00+0000", "Just us", [("VISIBILITY", "mention")]))
                try await harness.push(text, PushOptions(mirrorsMentionOnlyPosts: true))
                #expect(harness.statuses.map(\.visibility) == ["direct"])
            }
        }
    }

    @Test func aPollBeyondTheServersLimitsBecomesText() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let options = (1...6).map { "- [ ] Option \($0)" }.joined(separator: "\n")
                let text = feed(
                    post("2026-05-01T10:01:00+0000", "Pick\n" + options, [("POLL_END", "2026-05-03T12:00:00+0000")]))
                try await harness.push(text)
                let status = try #require(harness.statuses.first)
                #expect(status.poll == nil)
                #expect(status.text.contains("Option 6"))
            }
        }
    }

    @Test(arguments: textPresets)
    func aLongPostBecomesAThreadOfPartsWithinTheLimit(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let sentence = "This sentence is part of a long post that has to be split. "
                let body = String(repeating: sentence, count: preset.maxCharacters / sentence.count * 2 + 3)
                try await harness.push(feed(post("2026-05-01T10:01:00+0000", body)))
                let statuses = harness.statuses
                #expect(statuses.count == 3)
                for (index, status) in statuses.enumerated() {
                    #expect(status.text.count <= preset.maxCharacters)
                    #expect(status.text.hasSuffix("(\(index + 1)/3)"))
                    #expect(status.inReplyToID == (index == 0 ? nil : statuses[index - 1].id))
                }
                let mapping = try await harness.state.mapping(
                    postID: "2026-05-01T10:01:00+0000", feed: testFeedURL, account: harness.account.name)
                #expect(mapping?.parts.map(\.statusID) == statuses.map(\.id))
            }
        }
    }

    @Test(arguments: textPresets)
    func anEditedPostIsEditedAndARemovedPostDeletedWithAllItsParts(_ preset: FakeMastodonConfiguration) async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(preset, in: folder) { harness in
                let long = String(
                    repeating: "Many words in a row make a long post. ", count: preset.maxCharacters / 38 + 5)
                let poll = "Which?\n- [ ] A\n- [ ] B"
                let before = feed(
                    post("2026-05-01T10:01:00+0000", "Draft text"), post("2026-05-01T10:02:00+0000", long),
                    post("2026-05-01T10:03:00+0000", poll, [("POLL_END", "2026-05-03T12:00:00+0000")]))
                try await harness.push(before)
                #expect(harness.statuses.count == 4)
                let after = feed(
                    post("2026-05-01T10:01:00+0000", "Final text"),
                    post(
                        "2026-05-01T10:03:00+0000", "Which one?\n- [ ] A\n- [ ] B",
                        [("POLL_END", "2026-05-03T12:00:00+0000")]))
                let report = try await harness.push(after)
                #expect(report.entries.map(\.action).sorted { $0.rawValue < $1.rawValue } == [.delete, .edit, .edit])
                #expect(harness.statuses.map(\.text) == ["Final text", "Which one?"])
                #expect(harness.statuses.last?.poll?.options == ["A", "B"])
                #expect(harness.statuses.first?.editedAt != nil)
                #expect(try await harness.state.mappings(feed: testFeedURL, account: harness.account.name).count == 2)
                #expect(try await harness.push(after).entries.isEmpty)
            }
        }
    }

    @Test func aBoostAndAReactionRemovedFromTheFeedAreUndone() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.mastodon45, in: folder) { harness in
                let own = "\(testFeedURL)#2026-05-01T10:01:00+0000"
                let first = post("2026-05-01T10:01:00+0000", "Original")
                try await harness.push(
                    feed(
                        first, post("2026-05-01T10:02:00+0000", "", [("INCLUDE", own)]),
                        post("2026-05-01T10:03:00+0000", "", [("REPLY_TO", own), ("MOOD", "👍")])))
                let original = try #require(harness.statuses.first)
                #expect(harness.fake.storage.statuses.values.contains { $0.reblogOf == original.id })
                let report = try await harness.push(feed(first))
                #expect(Set(report.entries.map(\.action)) == [.unreblog, .unfavourite])
                #expect(!harness.fake.storage.statuses.values.contains { $0.reblogOf == original.id })
                #expect(harness.fake.storage.statuses[original.id]?.favouritedBy.isEmpty == true)
            }
        }
    }

    @Test func linkedImagesAreUploadedWithTheirAltTextAndKeptAcrossAnEdit() async throws {
        try await withTemporaryFolder { folder in
            for preset in [FakeMastodonConfiguration.mastodon45, .pixelfed] {
                try await PushHarness.with(preset, in: folder, statePath: folder.path("\(preset.name).sqlite")) {
                    harness in
                    var options = PushOptions()
                    options.loadImage = { image in
                        ImageFile(
                            bytes: Array("png bytes of \(image.target)".utf8), filename: "cat.png",
                            mimeType: "image/png")
                    }
                    let body = "My cat [[https://ana.example/cat.png][A grey cat asleep]]"
                    try await harness.push(feed(post("2026-05-01T10:01:00+0000", body)), options)
                    let status = try #require(harness.statuses.first)
                    #expect(status.mediaIDs.count == 1)
                    let media = try #require(harness.fake.storage.media[status.mediaIDs[0]])
                    #expect(media.description == "A grey cat asleep")
                    let report = try await harness.push(
                        feed(post("2026-05-01T10:01:00+0000", body + " again")), options)
                    let edited = try #require(harness.statuses.first)
                    #expect(edited.mediaIDs == status.mediaIDs)
                    if preset.name == "pixelfed" {
                        // Pixelfed has no edits: the change is reported once, not retried every run.
                        #expect(report.entries.map(\.action) == [.skip])
                        #expect(
                            try await harness.push(feed(post("2026-05-01T10:01:00+0000", body + " again")), options)
                                .entries.isEmpty)
                    } else {
                        #expect(edited.editedAt != nil)
                        #expect(edited.text.hasSuffix("again"))
                    }
                }
            }
        }
    }

    @Test func aTextPostIsRefusedOnPixelfedWithoutStoppingTheRun() async throws {
        try await withTemporaryFolder { folder in
            try await PushHarness.with(.pixelfed, in: folder) { harness in
                let report = try await harness.push(feed(post("2026-05-01T10:01:00+0000", "Words only")))
                #expect(report.entries.map(\.action) == [.fail])
                #expect(harness.statuses.isEmpty)
            }
        }
    }
}
