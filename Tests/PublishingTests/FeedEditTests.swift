import FeedHosting
import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// `FeedSynchronizer.edit`: an edit goes to the published feed first and then to the file, falls back to
/// the file when publishing fails, and never replaces a file that holds unpublished changes; against a
/// real `orgsocial serve` node.
struct FeedEditTests {
    /// A synchronizer for `alice/social.org` on `node`, with its bases in `folder`, and the file's path.
    private func setUp(
        _ node: TestNode, token: String? = nil, transport: (any HTTPTransport)? = nil
    ) throws -> (FeedSynchronizer, String) {
        try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
        let destination = NodeDestination(
            feedURL: node.url("/alice/social.org"), token: try token ?? node.issueToken(folder: "alice"))
        let path = try node.root.write(emptyFeed(nick: "alice"), to: "local.org")
        let publisher = transport.map { FeedPublisher(transport: $0, retryDelay: .milliseconds(2)) } ?? makePublisher()
        let sync = FeedSynchronizer(
            path: path, destination: destination, publisher: publisher,
            bases: MergeBaseStore(folder: node.root.path + "/bases"))
        return (sync, path)
    }

    private func post(_ text: String) -> @Sendable (inout Feed) throws -> String {
        { feed in feed.append(try PostDraft.post(text), at: fixedDate, timeZone: utc).id ?? "" }
    }

    private func bodies(_ text: String?) -> [String] { Feed(parsing: text ?? "").posts.map(\.body) }

    private func fileBodies(_ path: String) throws -> [String] {
        bodies(try String(contentsOfFile: path, encoding: .utf8))
    }

    @Test func anEditIsPublishedThenWrittenToTheFileAndBecomesTheBase() async throws {
        try await withNode { node in
            let (sync, path) = try setUp(node)
            let first = try await sync.edit(post("Hello"))
            guard case .published(let attempts) = first.publication else {
                Issue.record("not published: \(first.publication)")
                return
            }
            #expect(attempts == 1)
            #expect(first.value == "2026-01-02T03:04:05+0000")
            #expect(first.localFile == .replaced)
            #expect(first.baseNotSaved == nil)
            #expect(Array(try String(contentsOfFile: path, encoding: .utf8).utf8) == first.bytes)
            #expect(bodies(node.fileText("alice/social.org")) == ["Hello"])
            // The published feed is now the file's base: a second edit needs no sync first.
            let second = try await sync.edit(post("Again"))
            #expect(bodies(node.fileText("alice/social.org")) == ["Hello", "Again"])
            #expect(bodies(String(decoding: second.bytes, as: UTF8.self)) == ["Hello", "Again"])
            #expect(try fileBodies(path) == ["Hello", "Again"])
        }
    }

    @Test func anotherWritersPostIsKeptAndTheEditIsRetriedOnTheNewFeed() async throws {
        try await withNode { node in
            let token = try node.issueToken(folder: "alice")
            let url = node.url("/alice/social.org")
            let transport = InterposingTransport(base: CurlTransport(), before: .firstWrite) {
                _ = try await makePublisher().publish(to: url, token: token) { feed in
                    feed.append(try PostDraft.post("From the phone"), at: fixedDate, timeZone: utc)
                }
            }
            let (sync, path) = try setUp(node, token: token, transport: transport)
            let outcome = try await sync.edit(post("From the laptop"))
            guard case .published(let attempts) = outcome.publication else {
                Issue.record("not published: \(outcome.publication)")
                return
            }
            #expect(attempts == 2)
            #expect(bodies(node.fileText("alice/social.org")) == ["From the phone", "From the laptop"])
            #expect(try fileBodies(path) == ["From the phone", "From the laptop"])
        }
    }

    @Test func aPostAddedToTheFileDuringTheUploadIsKeptThere() async throws {
        try await withNode { node in
            let token = try node.issueToken(folder: "alice")
            let path = node.root.path + "/local.org"
            // Another terminal adds a post to the file while the upload is on its way.
            let transport = InterposingTransport(base: CurlTransport(), before: .firstWrite) {
                _ = try LocalFeedFile(path: path).update { bytes in
                    var feed = Feed(bytes: bytes)
                    feed.append(
                        try PostDraft.post("Typed meanwhile"), at: fixedDate.addingTimeInterval(60), timeZone: utc)
                    return ((), feed.bytes)
                }
            }
            let (sync, _) = try setUp(node, token: token, transport: transport)
            let outcome = try await sync.edit(post("Published"))
            guard case .published = outcome.publication, case .merged(let merged) = outcome.localFile else {
                Issue.record("outcome: \(outcome.publication), \(outcome.localFile)")
                return
            }
            #expect(try fileBodies(path) == ["Published", "Typed meanwhile"])
            #expect(Array(try String(contentsOfFile: path, encoding: .utf8).utf8) == merged)
            #expect(bodies(node.fileText("alice/social.org")) == ["Published"])
            // The base is what was published, so the next sync uploads the other post.
            let synced = try await sync.sync(resolving: .none)
            #expect(synced.uploaded)
            #expect(bodies(node.fileText("alice/social.org")) == ["Published", "Typed meanwhile"])
        }
    }

    @Test func whenPublishingFailsTheChangeIsSavedInTheFileAndTheReasonReturned() async throws {
        try await withNode { node in
            let (sync, path) = try setUp(node, token: "not-the-token")
            let outcome = try await sync.edit(post("Kept anyway"))
            guard case .savedLocally(let reason) = outcome.publication else {
                Issue.record("published: \(outcome.publication)")
                return
            }
            guard case .unauthorized = reason as? OrgSocialClientError else {
                Issue.record("reason: \(reason)")
                return
            }
            #expect(try fileBodies(path) == ["Kept anyway"])
            #expect(bodies(node.fileText("alice/social.org")).isEmpty)
        }
    }

    @Test func changesMadeInTheFileSinceItLastPublishedGoUpWithTheNextEdit() async throws {
        try await withNode { node in
            let (sync, path) = try setUp(node)
            let published = try await sync.edit(post("Published"))
            var edited = Feed(bytes: published.bytes)
            _ = edited.append(try PostDraft.post("Only here"), at: fixedDate.addingTimeInterval(60), timeZone: utc)
            try edited.text.write(toFile: path, atomically: true, encoding: .utf8)
            let outcome = try await sync.edit(post("Not lost"))
            guard case .published = outcome.publication else {
                Issue.record("outcome: \(outcome.publication)")
                return
            }
            #expect(outcome.publishedEarlierChanges)
            #expect(try fileBodies(path) == ["Published", "Only here", "Not lost"])
            #expect(bodies(node.fileText("alice/social.org")) == ["Published", "Only here", "Not lost"])
        }
    }

    @Test func aChangeSavedWhenItsUploadFailedGoesUpWithTheNextWriteExactlyOnce() async throws {
        try await withNode { node in
            let token = try node.issueToken(folder: "alice")
            let transport = FailingWritesTransport(base: CurlTransport(), failing: 1)
            let (sync, path) = try setUp(node, token: token, transport: transport)
            let failed = try await sync.edit(post("Saved while offline"))
            guard case .savedLocally(let reason) = failed.publication else {
                Issue.record("outcome: \(failed.publication)")
                return
            }
            #expect(reason is OrgSocialClientError)
            #expect(try fileBodies(path) == ["Saved while offline"])
            #expect(bodies(node.fileText("alice/social.org")).isEmpty)
            // Meanwhile another client posts to the feed.
            _ = try await makePublisher().publish(to: node.url("/alice/social.org"), token: token) { feed in
                feed.append(try PostDraft.post("From the phone"), at: fixedDate.addingTimeInterval(30), timeZone: utc)
            }
            let next = try await sync.edit { feed in
                feed.append(try PostDraft.post("Back online"), at: fixedDate.addingTimeInterval(90), timeZone: utc).id
            }
            guard case .published = next.publication else {
                Issue.record("outcome: \(next.publication)")
                return
            }
            #expect(next.publishedEarlierChanges)
            let expected = ["Saved while offline", "From the phone", "Back online"]
            #expect(bodies(node.fileText("alice/social.org")) == expected)
            #expect(try fileBodies(path) == expected)
            // Nothing is left to publish, and nothing goes up twice.
            let again = try await sync.sync(resolving: .none)
            #expect(!again.uploaded)
            #expect(bodies(node.fileText("alice/social.org")) == expected)
        }
    }

    @Test func aFileThatNeverAgreedWithTheFeedIsNotReplacedButGetsTheChange() async throws {
        try await withNode { node in
            let (sync, path) = try setUp(node)
            var edited = Feed(bytes: Array(emptyFeed(nick: "alice").utf8))
            _ = edited.append(try PostDraft.post("Only here"), at: fixedDate.addingTimeInterval(60), timeZone: utc)
            try edited.text.write(toFile: path, atomically: true, encoding: .utf8)
            try node.root.write(emptyFeed(nick: "alice") + "\n", to: "alice/social.org")
            let outcome = try await sync.edit(post("Not lost"))
            guard case .savedLocally(let reason) = outcome.publication,
                case .unpublishedLocalChanges(_, let agreedBefore) = reason as? FeedSyncError
            else {
                Issue.record("outcome: \(outcome.publication)")
                return
            }
            #expect(!agreedBefore)
            #expect(try fileBodies(path) == ["Only here", "Not lost"])
        }
    }

    @Test func anEditThatAddsErrorsIsRefusedAndNothingChanges() async throws {
        try await withNode { node in
            let (sync, path) = try setUp(node)
            let error = await #expect(throws: FeedSyncError.self) {
                _ = try await sync.edit { try $0.setKeyword("NICK", to: "ana banana") }
            }
            guard case .changeAddsErrors(let errors, let url) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(url == node.url("/alice/social.org"))
            #expect(!errors.isEmpty)
            #expect(try String(contentsOfFile: path, encoding: .utf8) == emptyFeed(nick: "alice"))
            #expect(node.fileText("alice/social.org") == emptyFeed(nick: "alice"))
        }
    }
}
