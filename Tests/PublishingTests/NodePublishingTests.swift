import FeedHosting
import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// The client against the real `orgsocial serve` node: PUT with If-Match under contention, and the
/// node's 412, 401, 422 and 413 answers surfaced as typed errors.
struct NodePublishingTests {
    @Test func twoConcurrentPublishersAppendingFiftyTimesEachLoseNothing() async throws {
        try await withNode { node in
            try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
            let token = try node.issueToken(folder: "alice")
            let url = node.url("/alice/social.org")
            let attempts = try await withThrowingTaskGroup(of: Int.self) { group in
                for writer in ["laptop", "phone"] {
                    group.addTask {
                        // Each writer has its own connection pool; both use the same clock, so their IDs
                        // collide and `append` moves them on against the content it finally lands in.
                        let publisher = makePublisher()
                        var used = 0
                        for index in 1...50 {
                            let result = try await publisher.publish(to: url, token: token, maxAttempts: 100) { feed in
                                feed.append(try PostDraft.post("\(writer) \(index)"), at: fixedDate, timeZone: utc)
                            }
                            used += result.attempts
                        }
                        return used
                    }
                }
                return try await group.reduce(0, +)
            }
            let feed = Feed(parsing: try #require(node.fileText("alice/social.org")))
            #expect(feed.posts.count == 100)
            #expect(Set(feed.posts.compactMap(\.id)).count == 100)
            for writer in ["laptop", "phone"] {
                #expect(
                    feed.posts.filter { $0.body.hasPrefix("\(writer) ") }.map(\.body)
                        == (1...50).map { "\(writer) \($0)" })
            }
            #expect(FeedValidator().validate(feed).filter { $0.severity == .error }.isEmpty)
            #expect(attempts >= 100)
        }
    }

    @Test func aStaleETagIs412WithTheCurrentETagWhenRetriesAreDisabled() async throws {
        try await withNode { node in
            try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
            let token = try node.issueToken(folder: "alice")
            let url = node.url("/alice/social.org")
            let other = makePublisher()
            let transport = InterposingTransport(base: CurlTransport(), before: .firstWrite) {
                _ = try await other.publish(to: url, token: token) { feed in
                    feed.append(try PostDraft.post("Got in first"), at: fixedDate, timeZone: utc)
                }
            }
            let publisher = FeedPublisher(transport: transport)
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await publisher.publish(to: url, token: token, maxAttempts: 1) { feed in
                    feed.append(try PostDraft.post("Too late"), at: fixedDate, timeZone: utc)
                }
            }
            let current = try #require(try await other.fetch(url))
            #expect(error == .conflict(url: url.absoluteString, attempts: 1, currentETag: current.etag))
            #expect(current.feed.posts.map(\.body) == ["Got in first"])

            // With retries, the same race ends with both posts.
            let retrying = FeedPublisher(
                transport: InterposingTransport(base: CurlTransport(), before: .firstWrite) {
                    _ = try await other.publish(to: url, token: token) { feed in
                        feed.append(try PostDraft.post("Also first"), at: fixedDate, timeZone: utc)
                    }
                }, retryDelay: .milliseconds(2))
            let result = try await retrying.publish(to: url, token: token) { feed in
                feed.append(try PostDraft.post("Lands second"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 2)
            #expect(
                Feed(parsing: try #require(node.fileText("alice/social.org"))).posts.map(\.body) == [
                    "Got in first", "Also first", "Lands second",
                ])
        }
    }

    @Test func aWrongTokenIs401AndChangesNothing() async throws {
        try await withNode { node in
            try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
            _ = try node.issueToken(folder: "alice")
            let url = node.url("/alice/social.org")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: url, token: String(repeating: "0", count: 64)) { feed in
                    feed.append(try PostDraft.post("Intruder"), at: fixedDate, timeZone: utc)
                }
            }
            guard case .unauthorized(let failedURL, _) = error else {
                Issue.record("expected unauthorized, got \(String(describing: error))")
                return
            }
            #expect(failedURL == url.absoluteString)
            #expect(node.fileText("alice/social.org") == emptyFeed(nick: "alice"))
        }
    }

    @Test func anInvalidFeedIs422WithTheNodesDiagnostics() async throws {
        try await withNode { node in
            try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
            let token = try node.issueToken(folder: "alice")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: node.url("/alice/social.org"), token: token) { feed in
                    feed = Feed(parsing: "#+TITLE: Broken\n\n* Posts\n** not a timestamp\nHello\n")
                }
            }
            guard case .rejected(_, let diagnostics, _) = error else {
                Issue.record("expected rejected, got \(String(describing: error))")
                return
            }
            #expect(!diagnostics.isEmpty)
            #expect(diagnostics.contains { $0.severity == "error" && $0.line != nil && $0.code != nil })
            #expect(node.fileText("alice/social.org") == emptyFeed(nick: "alice"))
        }
    }

    @Test func aFeedOverTheLimitIs413() async throws {
        try await withNode(maximumUploadBytes: 2048) { node in
            try node.root.write(emptyFeed(nick: "alice"), to: "alice/social.org")
            let token = try node.issueToken(folder: "alice")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: node.url("/alice/social.org"), token: token) { feed in
                    feed.append(
                        try PostDraft.post(String(repeating: "many words ", count: 300)), at: fixedDate, timeZone: utc)
                }
            }
            guard case .tooLarge = error else {
                Issue.record("expected tooLarge, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func aMissingFeedIsCreatedWithIfNoneMatch() async throws {
        try await withNode { node in
            let token = try node.issueToken(folder: "bob")
            let url = node.url("/bob/social.org")
            let start = try Feed.makeNew(title: "Bob", nick: "bob")
            let result = try await makePublisher().publish(to: url, token: token, creating: start) { feed in
                feed.append(try PostDraft.post("First!"), at: fixedDate, timeZone: utc)
            }
            #expect(result.didUpload)
            #expect(node.fileText("bob/social.org") == result.feed.text)
            #expect(result.etag == (try await makePublisher().fetch(url))?.etag)
        }
    }
}
