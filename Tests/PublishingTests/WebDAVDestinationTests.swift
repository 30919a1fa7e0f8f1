import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// Publishing to real WebDAV servers started by the tests (Apache 2.4 with `mod_dav`, nginx with its dav
/// module) on 127.0.0.1 through the one write cycle: creation, updates, another writer between our read
/// and our write (where each server can catch it), a conflict after three writes with nothing uploaded,
/// Basic auth failures, a change saved when its upload failed going up once with the next write, and
/// `post --publish --publish-method webdav` from the command line.
@Suite(.serialized) struct WebDAVDestinationTests {
    static let kinds = WebDAVServer.Kind.allCases.filter { WebDAVServer.testsRun($0, suite: "WebDAVDestinationTests") }

    private func destination(_ dav: WebDAVServer, password: String? = nil) -> WebDAVDestination {
        WebDAVDestination(
            feedURL: dav.url("social.org"), credentials: .basic(user: dav.user, password: password ?? dav.password))
    }

    private func bodies(_ bytes: [UInt8]?) -> [String] { Feed(bytes: bytes ?? []).posts.map(\.body) }

    private func append(_ body: String, seconds: TimeInterval = 0) -> @Sendable (inout Feed) throws -> String {
        { feed in
            feed.append(try PostDraft.post(body), at: fixedDate.addingTimeInterval(seconds), timeZone: utc).id ?? ""
        }
    }

    /// The feed with the posts `bodies`, one a minute from `fixedDate`.
    private func feed(_ bodies: [String]) -> [UInt8] {
        var feed = Feed(parsing: emptyFeed(nick: "ana"))
        for (index, body) in bodies.enumerated() {
            _ = feed.append(PostDraft(body: body), at: fixedDate.addingTimeInterval(Double(index) * 60), timeZone: utc)
        }
        return feed.bytes
    }

    @Test(arguments: kinds)
    func aFeedIsCreatedThenUpdated(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            let publisher = makePublisher()
            let created = try await publisher.publish(
                to: destination(dav), creating: Feed(parsing: emptyFeed(nick: "ana")), edit: append("First"))
            #expect(created.didUpload)
            #expect(bodies(dav.fileBytes("social.org")) == ["First"])
            // At once (Apache's tag is weak for a second after a change) and a while later.
            _ = try await publisher.publish(to: destination(dav), edit: append("Second", seconds: 60))
            try await Task.sleep(for: .milliseconds(1100))
            let third = try await publisher.publish(to: destination(dav), edit: append("Third", seconds: 120))
            #expect(third.attempts == 1)
            #expect(bodies(dav.fileBytes("social.org")) == ["First", "Second", "Third"])
        }
    }

    @Test(arguments: kinds)
    func anotherWritersPostIsKeptAndTheChangeAppliedAgain(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try dav.replaceFile("social.org", with: feed(["Old"]))
            try await Task.sleep(for: .milliseconds(1100))
            // Another writer saves the file after our read: before our check (nginx) or before our PUT
            // (Apache, which refuses the stale If-Match).
            let transport = InterposingTransport(
                base: CurlTransport(timeout: .seconds(20)), before: .request(kind == .nginx ? 2 : 3)
            ) {
                try dav.replaceFile("social.org", with: feed(["Old", "From the phone"]))
            }
            let publisher = FeedPublisher(transport: transport, retryDelay: .milliseconds(2))
            let result = try await publisher.publish(
                to: destination(dav), edit: append("From the laptop", seconds: 600))
            #expect(result.attempts == 2)
            #expect(bodies(dav.fileBytes("social.org")) == ["Old", "From the phone", "From the laptop"])
        }
    }

    @Test(arguments: kinds)
    func aFeedThatKeepsChangingIsAConflictAfterThreeWritesWithNothingUploaded(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try dav.replaceFile("social.org", with: feed(["Old"]))
            try await Task.sleep(for: .milliseconds(1100))
            let writes = Counter(0)
            // Before every check: the file changes each time (a post more, so the size changes too).
            let transport = InterposingTransport(base: CurlTransport(timeout: .seconds(20)), before: .everySecondGet) {
                let count = await writes.increment()
                try dav.replaceFile("social.org", with: feed(["Old"] + (1...count).map { "Elsewhere \($0)" }))
            }
            let publisher = FeedPublisher(transport: transport, retryDelay: .milliseconds(2))
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.publish(to: destination(dav), edit: append("Never lands", seconds: 600))
            }
            guard case .conflict(_, let attempts, _) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(attempts == 3)
            #expect(!bodies(dav.fileBytes("social.org")).contains("Never lands"))
        }
    }

    @Test(arguments: kinds)
    func aWrongPasswordIsRefusedAndNothingLands(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try dav.replaceFile("social.org", with: feed(["Old"]))
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: destination(dav, password: "wrong"), edit: append("No"))
            }
            guard case .unauthorized = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(bodies(dav.fileBytes("social.org")) == ["Old"])
        }
    }

    @Test(arguments: kinds)
    func aChangeSavedWhenItsUploadFailedGoesUpWithTheNextWriteOnce(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try dav.replaceFile("social.org", with: Array(emptyFeed(nick: "ana").utf8))
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let path = try folder.write(emptyFeed(nick: "ana"), to: "social.org")
            let sync = FeedSynchronizer(
                path: path, destination: destination(dav),
                publisher: FeedPublisher(
                    transport: FailingWritesTransport(base: CurlTransport(timeout: .seconds(20)), failing: 1),
                    retryDelay: .milliseconds(2)),
                bases: MergeBaseStore(folder: folder.path + "/bases"))
            let failed = try await sync.edit(append("Saved"))
            guard case .savedLocally = failed.publication else {
                Issue.record("outcome: \(failed.publication)")
                return
            }
            #expect(bodies(dav.fileBytes("social.org")).isEmpty)
            let next = try await sync.edit(append("Next", seconds: 60))
            guard case .published = next.publication else {
                Issue.record("outcome: \(next.publication)")
                return
            }
            #expect(bodies(dav.fileBytes("social.org")) == ["Saved", "Next"])
            try await Task.sleep(for: .milliseconds(1100))
            let again = try await sync.sync(resolving: .none)
            #expect(!again.uploaded)
        }
    }

    @Test(arguments: kinds)
    func theCommandLinePostsToAShareWithAPasswordFromStandardInput(kind: WebDAVServer.Kind) async throws {
        try await withServer(try WebDAVServer(kind)) { dav in
            try dav.replaceFile("social.org", with: Array(emptyFeed(nick: "ana").utf8))
            let home = try TemporaryFolder()
            defer { home.remove() }
            let file = try home.write(emptyFeed(nick: "ana"), to: "social.org")
            let result = await runCLI(
                [
                    "post", "--file", file, "--text", "Over WebDAV", "--publish", "--publish-method", "webdav",
                    "--publish-username", dav.user, "--publish-token", "-",
                ],
                environment: ["HOME": home.path, "ORGSOCIAL_FEED_URL": dav.url("social.org").absoluteString],
                input: Array((dav.password + "\n").utf8))
            #expect(result.status == 0, "\(result.error)")
            #expect(bodies(dav.fileBytes("social.org")) == ["Over WebDAV"])
            #expect(try home.text("social.org") == String(decoding: dav.fileBytes("social.org") ?? [], as: UTF8.self))
        }
    }
}
