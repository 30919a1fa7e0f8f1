import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// The write cycle through the Org Social Host API of a real `orgsocial serve` node (which checks the
/// upload's `If-Match`): another client's post kept, a conflict after three uploads with nothing of ours
/// uploaded, and a change saved when its upload failed going up once with the next write.
struct HostDestinationTests {
    /// Signs `nick` up on the node and returns its destination.
    private func account(_ node: TestNode, _ nick: String) async throws -> HostDestination {
        let account = try await makePublisher().signup(host: node.url("/"), nick: nick)
        return HostDestination(vfile: account.vfile, feedURL: account.publicURL)
    }

    private func bodies(_ text: String?) -> [String] { Feed(parsing: text ?? "").posts.map(\.body) }

    private func append(_ body: String, seconds: TimeInterval = 0) -> @Sendable (inout Feed) throws -> String {
        { feed in
            feed.append(try PostDraft.post(body), at: fixedDate.addingTimeInterval(seconds), timeZone: utc).id ?? ""
        }
    }

    @Test func anotherClientsPostIsKeptAndTheChangeAppliedAgain() async throws {
        try await withNode { node in
            let destination = try await account(node, "ana")
            let transport = InterposingTransport(base: CurlTransport(), before: .firstWrite) {
                _ = try await makePublisher().publish(to: destination, edit: append("From the phone"))
            }
            let result = try await FeedPublisher(transport: transport, retryDelay: .milliseconds(2)).publish(
                to: destination, edit: append("From the laptop", seconds: 60))
            #expect(result.attempts == 2)
            #expect(bodies(node.fileText("ana/social.org")) == ["From the phone", "From the laptop"])
        }
    }

    @Test func aHostThatAnswersTheVersionOnlyInTheEnvelopeIsTakenAtItsWord() async throws {
        try await withNode { node in
            let destination = try await account(node, "dee")
            // The node answers both; this host keeps only `data.etag`, as some hosts do.
            let transport = HeaderDroppingTransport(base: CurlTransport(), header: "ETag", onPath: "/upload")
            let publisher = FeedPublisher(transport: transport)
            let remote = try #require(try await publisher.read(destination))
            var feed = remote.feed
            feed.append(try PostDraft.post("Versioned"), at: fixedDate, timeZone: utc)
            let written = try await publisher.upload(feed.bytes, to: destination, over: remote)
            let current = try #require(try await makePublisher().read(destination))
            #expect(written == current.version)
            #expect(written != remote.version)
            // That version is good for the next conditional upload.
            var next = current.feed
            next.append(try PostDraft.post("Next"), at: fixedDate.addingTimeInterval(60), timeZone: utc)
            let over = RemoteFeed(feed: current.feed, version: written, url: current.url)
            _ = try await publisher.upload(next.bytes, to: destination, over: over)
            #expect(bodies(node.fileText("dee/social.org")) == ["Versioned", "Next"])
        }
    }

    @Test func aFeedThatKeepsChangingIsAConflictAfterThreeUploadsWithNothingOfOursUploaded() async throws {
        try await withNode { node in
            let destination = try await account(node, "bob")
            let count = Counter(0)
            let transport = InterposingTransport(base: CurlTransport(), before: .everyWrite) {
                let n = await count.increment()
                _ = try await makePublisher().publish(
                    to: destination, edit: append("Elsewhere \(n)", seconds: Double(n)))
            }
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await FeedPublisher(transport: transport, retryDelay: .milliseconds(2)).publish(
                    to: destination, edit: append("Never lands", seconds: 600))
            }
            guard case .conflict(_, let attempts, _) = error else {
                Issue.record("thrown: \(String(describing: error))")
                return
            }
            #expect(attempts == 3)
            #expect(bodies(node.fileText("bob/social.org")) == ["Elsewhere 1", "Elsewhere 2", "Elsewhere 3"])
        }
    }

    @Test func aChangeSavedWhenItsUploadFailedGoesUpWithTheNextWriteOnce() async throws {
        try await withNode { node in
            let destination = try await account(node, "cyd")
            let path = node.root.path + "/local.org"
            try Data((node.fileText("cyd/social.org") ?? "").utf8).write(to: URL(fileURLWithPath: path))
            let sync = FeedSynchronizer(
                path: path, destination: destination,
                publisher: FeedPublisher(
                    transport: FailingWritesTransport(base: CurlTransport(), failing: 1), retryDelay: .milliseconds(2)),
                bases: MergeBaseStore(folder: node.root.path + "/bases"))
            let failed = try await sync.edit(append("Saved"))
            guard case .savedLocally = failed.publication else {
                Issue.record("outcome: \(failed.publication)")
                return
            }
            #expect(bodies(node.fileText("cyd/social.org")).isEmpty)
            let next = try await sync.edit(append("Next", seconds: 60))
            guard case .published = next.publication else {
                Issue.record("outcome: \(next.publication)")
                return
            }
            #expect(next.publishedEarlierChanges)
            #expect(bodies(node.fileText("cyd/social.org")) == ["Saved", "Next"])
            #expect(!(try await sync.sync(resolving: .none)).uploaded)
        }
    }
}

/// Forwards requests, dropping one header from the answers to requests for one path.
struct HeaderDroppingTransport: HTTPTransport {
    let base: any HTTPTransport
    let header: String
    let onPath: String

    func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        var response = try await base.send(request)
        if request.url.path == onPath { response.headers.remove(header) }
        return response
    }
}
