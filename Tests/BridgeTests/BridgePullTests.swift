import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import Synchronization
import TestSupport
import Testing
import TootClient

/// `BridgePull` against the fake Mastodon server: the account's own statuses reach the feed once, in order,
/// with their threads, reblogs, media, polls, edits and deletes; the bridge's own statuses never come back.
@Suite struct BridgePullTests {
    @Test(arguments: pullPresets)
    func theFirstPullImportsOnlyStatusesMadeAfterTheAccountWasAdded(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset, seedBefore: 3) { bed in
            let first = try await bed.post("Hello from the web")
            let second = try await bed.post("A *second* one")
            let report = try await bed.pull()
            #expect(report.statuses.map(\.action) == [.added, .added], "\(preset.name)")
            let posts = try bed.feed().posts
            #expect(posts.count == 2)
            #expect(posts.map(\.client) == [BridgeIdentity.clientProperty, BridgeIdentity.clientProperty])
            #expect(posts.map { $0.value(of: "URL") } == [first.url, second.url])
            #expect(posts.first?.id == OrgTimestamp.format(first.createdAt, timeZone: utc))
            #expect(posts.first?.body.contains("Hello from the web") == true)
            #expect(report.cursor == second.id)
            let stored = try await bed.state.cursor(.pull, feed: bed.localFeed.key, account: bed.account.name)
            #expect(stored?.value == second.id)
            let mapped = try await bed.state.mapping(statusID: first.id, account: bed.account.name)
            #expect(mapped?.origin == .account)
            #expect(mapped?.postID == posts.first?.id)
        }
    }

    @Test(arguments: pullPresets)
    func aPullWithNothingNewIsOneRequestAndLeavesTheFeedAlone(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset) { bed in
            try await bed.post("Only one")
            _ = try await bed.pull()
            let before = try bed.folder.bytes("social.org")
            let requests = bed.apiRequests
            let again = try await bed.pull()
            #expect(again.statuses.isEmpty)
            #expect(bed.apiRequests - requests == 1, "\(preset.name)")
            #expect(try bed.folder.bytes("social.org") == before)
        }
    }

    /// Day-one test 3 (mastodon-api.md §6.4): 100 new statuses, pages of 40: no gap, oldest first, the cursor
    /// persisted after each one.
    @Test(arguments: pullPresets)
    func aHundredNewStatusesArePulledWithoutGapsOldestFirstWithTheCursorAfterEach(
        preset: FakeMastodonConfiguration
    ) async throws {
        try await withPullBed(preset) { bed in
            let start = try await bed.post("Before the burst")
            _ = try await bed.pull()
            let ids = bed.fake.seedStatuses(100) { "Burst \($0)" }
            let feed = CursorRecordingFeed(base: bed.localFeed, state: bed.state, account: bed.account.name)
            let journalStart = bed.fake.journal.count
            let report = try await bed.pull(PullOptions(maxStatuses: 200, timeZone: utc), into: feed)
            #expect(report.statuses.map(\.statusID) == ids, "\(preset.name)")
            #expect(report.statuses.allSatisfy { $0.action == .added })
            let bodies = try bed.feed().posts.dropFirst().map {
                $0.body.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            #expect(bodies == (1...100).map { "Burst \($0)" })
            // Before each write, the cursor is the status before it: it was persisted after each one.
            let seen = feed.seen.withLock { $0 }
            #expect(seen.count == 100)
            #expect(seen == ([start.id] + ids.dropLast()).map { Optional($0) })
            // Forward paging used min_id, never since_id.
            let pages = bed.fake.journal[journalStart...].filter { $0.path.hasSuffix("/statuses") && $0.method == .get }
            #expect(pages.contains { entry in entry.query.contains { $0.name == "min_id" } })
            #expect(!pages.contains { entry in entry.query.contains { $0.name == "since_id" } })
        }
    }

    @Test func maxBoundsARunAndTheNextRunContinues() async throws {
        try await withPullBed(.mastodon45) { bed in
            var ids: [String] = []
            for number in 1...5 { ids.append(try await bed.post("Post \(number)").id) }
            let first = try await bed.pull(PullOptions(maxStatuses: 2, timeZone: utc))
            #expect(first.statuses.map(\.statusID) == Array(ids.prefix(2)))
            let second = try await bed.pull(PullOptions(maxStatuses: 2, timeZone: utc))
            #expect(second.statuses.map(\.statusID) == Array(ids[2..<4]))
            let third = try await bed.pull(PullOptions(maxStatuses: 2, timeZone: utc))
            #expect(third.statuses.map(\.statusID) == [ids[4]])
            #expect(try bed.feed().posts.count == 5)
        }
    }

    @Test func sinceAndAllReachBackBeforeTheAccountWasAdded() async throws {
        try await withPullBed(.mastodon45, seedBefore: 4) { bed in
            let all = try await bed.pull(PullOptions(start: .all, maxStatuses: 10, dryRun: true, timeZone: utc))
            #expect(all.statuses.count == 4)
            let since = bed.account.addedAt.addingTimeInterval(-150)
            let some = try await bed.pull(PullOptions(start: .since(since), timeZone: utc))
            #expect(some.statuses.count == 2)
            #expect(
                try bed.feed().posts.map { $0.body.trimmingCharacters(in: .whitespacesAndNewlines) } == [
                    "Status 3", "Status 4",
                ])
        }
    }

    /// Day-one test 7: statuses the bridge posted (its application name) are never pulled, even with the
    /// state file deleted; and posts pulled before are adopted, not added twice.
    @Test(arguments: pullPresets)
    func statusesMadeByTheBridgeAreNeverPulledEvenWithoutTheStateFile(preset: FakeMastodonConfiguration)
        async throws
    {
        try await withPullBed(preset) { bed in
            bed.fake.clock.advance(by: .seconds(60))
            _ = try await bed.bridgeClient.postStatus(StatusDraft(text: "Pushed by the bridge"), idempotencyKey: "p1")
            try await bed.post("Written on the web")
            let report = try await bed.pull()
            #expect(report.statuses.map(\.action) == [.skipped, .added], "\(preset.name)")
            #expect(report.statuses.first?.reason == "posted by the bridge")

            // A new state file, the same account added again at the same moment.
            let fresh = try await BridgeState(path: bed.folder.path("other.sqlite"))
            try await fresh.addAccount(bed.account)
            let again = try await bed.pull(state: fresh)
            #expect(again.statuses.map(\.action) == [.skipped, .added])
            let posts = try bed.feed().posts
            #expect(posts.count == 1)
            #expect(posts.first?.body.contains("Written on the web") == true)
            try await fresh.close()
        }
    }

    @Test func statusesMappedToPushedPostsAreNotPulled() async throws {
        try await withPullBed(.mastodon45) { bed in
            let status = try await bed.post("Pushed earlier, from the feed")
            try await bed.state.saveMapping(
                PostMapping(
                    feed: bed.localFeed.key, account: bed.account.name, postID: "2026-05-01T12:00:00+0000",
                    parts: [StatusPart(statusID: status.id, url: nil)], contentHash: "h", origin: .feed))
            let report = try await bed.pull()
            #expect(report.statuses.first?.action == .skipped)
            #expect(report.statuses.first?.reason?.hasPrefix("made by push") == true)
            #expect(try bed.feed().posts.isEmpty)
        }
    }

    @Test(arguments: pullPresets)
    func threadsReblogsMediaAndPollsBecomeOrg(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset) { bed in
            let root = try await bed.post("Thread start")
            let reply = try await bed.post("Thread continues", replyTo: root.id)
            let mentionID = bed.fake.receiveMention(from: "bob@other.example", text: "hi")
            let remote = try #require(bed.fake.storage.notifications[mentionID]?.statusID)
            let elsewhere = try await bed.post("@bob@other.example hello back", replyTo: remote)
            bed.fake.clock.advance(by: .seconds(60))
            let boostOwn = try await bed.web.reblog(id: root.id)
            bed.fake.clock.advance(by: .seconds(60))
            let boostOther = try await bed.web.reblog(id: remote)
            let image = try await bed.web.uploadMedia(
                [1, 2, 3], filename: "cat.png", mimeType: "image/png", description: "A grey cat",
                checkInterval: .milliseconds(1))
            let picture = try await bed.post("Look", media: [image.id])
            var poll: Status?
            if preset.pollLimits.maxOptions > 0 {
                poll = try await bed.post("Tea or coffee?", poll: .init(options: ["Tea", "Coffee"], expiresIn: 3600))
            }
            let report = try await bed.pull(PullOptions(maxStatuses: 50, timeZone: utc))
            let actions = Dictionary(uniqueKeysWithValues: report.statuses.map { ($0.statusID, $0) })
            #expect(actions[elsewhere.id]?.action == .skipped, "\(preset.name)")
            let feed = try bed.feed()
            func post(of status: Status) -> Post? {
                feed.posts.first { $0.value(of: "URL") == StatusImport.link(of: status) }
            }
            let rootPost = try #require(post(of: root))
            let base = PullBed.feedURL.absoluteString
            #expect(post(of: reply)?.replyTo?.description == "\(base)#\(rootPost.id ?? "")")
            #expect(post(of: boostOwn)?.include?.description == "\(base)#\(rootPost.id ?? "")")
            let other = try #require(post(of: boostOther))
            #expect(other.body.contains("Boosted [[") && other.body.contains("@bob@other.example"))
            let withPicture = try #require(post(of: picture))
            #expect(withPicture.body.contains("][A grey cat]]"), "\(withPicture.body)")
            if let poll {
                let pollPost = try #require(post(of: poll))
                #expect(pollPost.pollOptions == ["Tea", "Coffee"], "\(pollPost.body)")
                #expect(pollPost.pollEnd != nil)
            }
        }
    }

    @Test(arguments: pullPresets)
    func editsAndDeletesOfPulledStatusesFollow(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset) { bed in
            let kept = try await bed.post("Stays")
            let edited = try await bed.post("First words")
            let deleted = try await bed.post("Soon gone")
            _ = try await bed.pull()
            #expect(try bed.feed().posts.count == 3)
            let editedID = try #require(try bed.feed().posts[1].id)
            bed.fake.clock.advance(by: .seconds(60))
            let current = try await bed.web.status(id: edited.id)
            _ = try await bed.web.editStatus(
                id: edited.id, StatusDraft.edit(of: current, text: "Better words", now: bed.fake.clock.now))
            try await bed.web.deleteStatus(id: deleted.id)
            let report = try await bed.pull()
            #expect(Set(report.statuses.map(\.action)) == [.edited, .deleted], "\(preset.name)")
            let posts = try bed.feed().posts
            #expect(posts.count == 2)
            #expect(posts[1].id == editedID)
            #expect(posts[1].body.contains("Better words"))
            #expect(posts[0].body.contains("Stays"))
            #expect(try await bed.state.mapping(statusID: deleted.id, account: bed.account.name) == nil)
            #expect(try await bed.state.mapping(statusID: kept.id, account: bed.account.name) != nil)
            // Nothing changed since: nothing happens.
            #expect(try await bed.pull().statuses.isEmpty)
        }
    }

    @Test func aDryRunChangesNothing() async throws {
        try await withPullBed(.mastodon45) { bed in
            try await bed.post("Maybe")
            let before = try bed.folder.bytes("social.org")
            let report = try await bed.pull(PullOptions(dryRun: true, timeZone: utc))
            #expect(report.statuses.map(\.action) == [.added])
            #expect(report.statuses.first?.text?.contains(":CLIENT: orgsocial-bridge") == true)
            #expect(try bed.folder.bytes("social.org") == before)
            #expect(try await bed.state.cursor(.pull, feed: bed.localFeed.key, account: bed.account.name) == nil)
            #expect(try await bed.state.remoteAccount(of: bed.account.name) == nil)
        }
    }

    @Test(arguments: pullPresets)
    func aFeedOnANodeKeepsAConcurrentEditMadeDuringThePull(preset: FakeMastodonConfiguration) async throws {
        try await withPullBed(preset) { bed in
            try await bed.post("From Mastodon")
            let initial = "#+TITLE: Alice\n#+NICK: alice\n\n* Posts\n"
            try await withFeedNode(initial: initial) { node in
                let url = node.feedURL
                let token = node.token
                let transport = InterposingTransport(base: CurlTransport(timeout: .seconds(10)), before: .firstWrite) {
                    // Another writer adds a post between the bridge's read and its upload.
                    let other = FeedPublisher(transport: CurlTransport(timeout: .seconds(10)))
                    try await other.publish(to: url, token: token) { feed in
                        feed.append(PostDraft(body: "Written meanwhile"), at: Date(timeIntervalSince1970: 0))
                    }
                }
                let feed = PublishedBridgeFeed(
                    destination: NodeDestination(feedURL: url, token: token),
                    publisher: FeedPublisher(transport: transport, retryDelay: .milliseconds(1)))
                let report = try await bed.pull(into: feed)
                #expect(report.statuses.map(\.action) == [.added])
                let text = try node.text()
                #expect(text.contains("Written meanwhile"), "\(text)")
                #expect(text.contains("From Mastodon"), "\(text)")
                #expect(text.contains(":CLIENT: orgsocial-bridge"))
            }
        }
    }

    @Test func aLocalFileEditedDuringThePullKeepsTheEdit() async throws {
        try await withPullBed(.mastodon45) { bed in
            try await bed.post("From Mastodon")
            let path = bed.feedPath
            let feed = EditingFeed(base: bed.localFeed) {
                // An editor saves the file between the bridge's read and its write.
                let text = try String(contentsOfFile: path, encoding: .utf8) + "\n** 2026-01-01T00:00:00+0000\n\nMine\n"
                try text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            _ = try await bed.pull(into: feed)
            let text = try bed.folder.text("social.org")
            #expect(text.contains("Mine") && text.contains("From Mastodon"), "\(text)")
        }
    }
}

/// A local feed whose edit, the first time, runs `interloper` after reading (an editor saving the file).
final class EditingFeed: BridgeFeed {
    let base: LocalBridgeFeed
    let interloper: @Sendable () throws -> Void
    private let done = LogLines()

    init(base: LocalBridgeFeed, interloper: @escaping @Sendable () throws -> Void) {
        self.base = base
        self.interloper = interloper
    }

    var key: String { base.key }
    var publicURL: URL? { base.publicURL }

    func update<Value: Sendable>(_ edit: @Sendable (inout Feed) throws -> Value) async throws -> Value {
        let interloper = self.interloper
        let done = self.done
        return try await base.update { feed in
            let value = try edit(&feed)
            if done.all.isEmpty {
                done.append("x")
                try interloper()
            }
            return value
        }
    }
}
