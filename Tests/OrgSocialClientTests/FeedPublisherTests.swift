import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import OrgSocial
import TestSupport
import Testing

@testable import OrgSocialClient

/// `FeedPublisher` over real sockets against the fake node: fetch, edit, conditional PUT, retries on 412
/// and the mapping of every failure to a typed error.
struct FeedPublisherTests {
    @Test func appendsAPostWithIfMatchAndBearerToken() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let result = try await makePublisher().publish(to: server.url("/social.org"), token: "secret") { feed in
                feed.append(try PostDraft.post("Hello"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 1)
            #expect(result.didUpload)
            #expect(result.value.id == "2026-01-02T03:04:05+0000")
            let stored = try #require(await server.state.files["/social.org"])
            #expect(result.feed.bytes == stored)
            #expect(result.etag == FakeFeedState.etag(stored))
            let put = try #require(await server.state.requests("PUT").first)
            #expect(put.headers["Authorization"] == "Bearer secret")
            #expect(put.headers["If-Match"] == FakeFeedState.etag(Array(sampleFeed.utf8)))
            #expect(put.headers["Content-Type"] == "text/plain; charset=utf-8")
            #expect(put.headers["User-Agent"] == "orgsocial/\(OrgSocialClientVersion.current)")
        }
    }

    @Test func retriesAfterAConflictWithTheEditReappliedToFreshContent() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            // Another writer appends a post at the same second between our GET and our PUT, twice.
            await server.state.interleave([
                otherWriterAppends("From the phone", at: fixedDate),
                otherWriterAppends("From the laptop", at: fixedDate),
            ])
            let result = try await makePublisher().publish(to: server.url("/social.org"), token: "secret") { feed in
                feed.append(try PostDraft.post("From Swift"), at: fixedDate, timeZone: utc)
            }
            #expect(result.attempts == 3)
            let stored = Feed(bytes: try #require(await server.state.files["/social.org"]))
            #expect(stored.posts.map(\.body) == ["First post.", "From the phone", "From the laptop", "From Swift"])
            let ids = stored.posts.compactMap(\.id)
            #expect(Set(ids).count == ids.count)
            #expect(result.value.id == "2026-01-02T03:04:07+0000")
            #expect(await server.state.requests("PUT").count == 3)
            #expect(await server.state.requests("GET").count == 3)
        }
    }

    @Test func givesUpAfterMaxAttemptsWithATypedConflict() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            await server.state.forceStatuses([412, 412, 412])
            let url = server.url("/social.org")
            await #expect(
                throws: OrgSocialClientError.conflict(
                    url: url.absoluteString, attempts: 3, currentETag: FakeFeedState.etag(Array(sampleFeed.utf8)))
            ) {
                try await makePublisher().publish(to: url, token: "secret", maxAttempts: 3) { feed in
                    feed.append(try PostDraft.post("Never lands"), at: fixedDate, timeZone: utc)
                }
            }
            #expect(await server.state.requests("PUT").count == 3)
            #expect(await server.state.text("/social.org") == sampleFeed)
        }
    }

    @Test func withRetriesDisabledAStaleETagIsAConflictAtOnce() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            await server.state.interleave([otherWriterAppends("Sneaky", at: fixedDate)])
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: server.url("/social.org"), token: "secret", maxAttempts: 1) {
                    feed in feed.append(try PostDraft.post("Mine"), at: fixedDate, timeZone: utc)
                }
            }
            guard case .conflict(_, let attempts, let current) = error else {
                Issue.record("expected a conflict, got \(String(describing: error))")
                return
            }
            #expect(attempts == 1)
            let stored = try #require(await server.state.files["/social.org"])
            #expect(current == FakeFeedState.etag(stored))
            #expect(error?.localizedDescription.contains("changed elsewhere") == true)
        }
    }

    @Test func aMissingFeedIsCreatedWithIfNoneMatchOnlyWhenAllowed() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setToken("secret", for: "/new.org")
            let url = server.url("/new.org")
            await #expect(throws: OrgSocialClientError.notFound(url: url.absoluteString)) {
                try await makePublisher().publish(to: url, token: "secret") { _ in }
            }
            let start = try Feed.makeNew(title: "New", nick: "new")
            let result = try await makePublisher().publish(to: url, token: "secret", creating: start) { feed in
                feed.append(try PostDraft.post("Hi"), at: fixedDate, timeZone: utc)
            }
            #expect(result.didUpload)
            let put = try #require(await server.state.requests("PUT").last)
            #expect(put.headers["If-None-Match"] == "*")
            #expect(put.headers["If-Match"] == nil)
            #expect(await server.state.text("/new.org") == result.feed.text)
        }
    }

    @Test func anEditThatChangesNothingUploadsNothing() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let result = try await makePublisher().publish(to: server.url("/social.org"), token: "secret") { _ in 42 }
            #expect(!result.didUpload)
            #expect(result.value == 42)
            #expect(result.etag == FakeFeedState.etag(Array(sampleFeed.utf8)))
            #expect(await server.state.requests("PUT").isEmpty)
        }
    }

    @Test func editErrorsPassThroughUnchanged() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            await #expect(throws: OrgSocialError.postNotFound(id: "nope")) {
                try await makePublisher().publish(to: server.url("/social.org"), token: "secret") { feed in
                    try feed.deletePost(id: "nope")
                }
            }
        }
    }

    @Test func aWrongTokenIsUnauthorizedWithAMessageAboutTheToken() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let url = server.url("/social.org")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: url, token: "wrong") { feed in
                    feed.append(try PostDraft.post("x"), at: fixedDate, timeZone: utc)
                }
            }
            #expect(error == .unauthorized(url: url.absoluteString, message: "Invalid token"))
            #expect(error?.localizedDescription.contains("Check the token") == true)
            #expect(await server.state.text("/social.org") == sampleFeed)
        }
    }

    @Test func anInvalidFeedIsRejectedWithTheServersDiagnostics() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: server.url("/social.org"), token: "secret") { feed in
                    feed = Feed(parsing: feed.text + "** not-a-timestamp\nBroken.\n")
                }
            }
            guard case .rejected(_, let diagnostics, let message) = error else {
                Issue.record("expected rejected, got \(String(describing: error))")
                return
            }
            #expect(message == "The feed has errors")
            #expect(!diagnostics.isEmpty)
            #expect(diagnostics.allSatisfy { $0.severity == "error" && $0.line != nil && $0.code != nil })
            #expect(error?.localizedDescription.contains("HTTP 422") == true)
        }
    }

    @Test func aTooLargeFeedMapsTo413() async throws {
        try await FakeFeedServer.with(maximumBodyBytes: 300) { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let url = server.url("/social.org")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: url, token: "secret") { feed in
                    feed.append(
                        try PostDraft.post(String(repeating: "long ", count: 100)), at: fixedDate, timeZone: utc)
                }
            }
            guard case .tooLarge(let failedURL, let byteCount, _) = error else {
                Issue.record("expected tooLarge, got \(String(describing: error))")
                return
            }
            #expect(failedURL == url.absoluteString)
            #expect(byteCount > 300)
        }
    }

    @Test func otherStatusesMapToTypedErrors() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let url = server.url("/social.org")
            let publisher = makePublisher()
            let bytes = Array(sampleFeed.utf8)
            await server.state.forceStatuses([428])
            await #expect(throws: OrgSocialClientError.preconditionRequired(url: url.absoluteString)) {
                try await NodeDestination(feedURL: url, token: "secret").write(
                    bytes, precondition: .none, using: publisher.transport)
            }
            await server.state.forceStatuses([503])
            await #expect(
                throws: OrgSocialClientError.uploadFailed(
                    statusCode: 503, url: url.absoluteString, message: "Forced 503")
            ) {
                try await NodeDestination(feedURL: url, token: "secret").write(
                    bytes, precondition: .none, using: publisher.transport)
            }
            await server.state.forceStatuses([412])
            await #expect(
                throws: OrgSocialClientError.conflict(
                    url: url.absoluteString, attempts: 1, currentETag: FakeFeedState.etag(bytes))
            ) {
                try await publisher.upload(
                    bytes, to: NodeDestination(feedURL: url, token: "secret"),
                    over: RemoteFeed(feed: Feed(bytes: bytes), etag: "\"old\"", url: url))
            }
        }
    }

    @Test func aServerWithoutETagsIsWrittenOnlyAfterTheSameBytesAreReadAgain() async throws {
        try await FakeFeedServer.with { server in
            let publisher = makePublisher()
            let account = try await publisher.signup(host: server.url("/"), nick: "ana")
            await server.state.setFile("/ana/social.org", sampleFeed)
            await server.state.setSendsETags(false)
            let result = try await publisher.publishViaHost(vfile: account.vfile, publicURL: account.publicURL) {
                feed in feed.append(try PostDraft.post("x"), at: fixedDate, timeZone: utc)
            }
            #expect(result.didUpload)
            #expect(await server.state.requests("GET").count == 2)
            let upload = try #require(await server.state.requests("POST").last)
            #expect(upload.headers["If-Match"] == nil)
            #expect(await server.state.text("/ana/social.org")?.contains("\nx\n") == true)
        }
    }

    @Test func anHTMLPageIsNotAFeed() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile(
                "/page.org", "<!DOCTYPE html>\n<html><body>Landing page</body></html>\n", token: "t")
            let url = server.url("/page.org")
            let error = await #expect(throws: OrgSocialClientError.self) {
                try await makePublisher().publish(to: url, token: "t") { _ in }
            }
            guard case .invalidResponse(_, let reason) = error else {
                Issue.record("expected invalidResponse, got \(String(describing: error))")
                return
            }
            #expect(reason.contains("HTML page"))
        }
    }

    @Test func anUnreachableServerIsANetworkError() async throws {
        // A port that was just free: start a server, note its port, stop it.
        let server = try await FakeFeedServer()
        let url = server.url("/social.org")
        await server.stop()
        let error = await #expect(throws: OrgSocialClientError.self) {
            try await makePublisher().publish(to: url, token: "secret") { _ in }
        }
        guard case .networkError(let failedURL, let message) = error else {
            Issue.record("expected networkError, got \(String(describing: error))")
            return
        }
        #expect(failedURL == url.absoluteString)
        #expect(!message.isEmpty)
        #expect(error?.localizedDescription.contains("Cannot reach \(url.absoluteString)") == true)
    }

    @Test func nonHTTPURLsAreRefusedBeforeAnyRequest() async throws {
        let url = try #require(URL(string: "ftp://example.org/social.org"))
        let error = await #expect(throws: OrgSocialClientError.self) {
            try await makePublisher().publish(to: url, token: "t") { _ in }
        }
        guard case .invalidURL = error else {
            Issue.record("expected invalidURL, got \(String(describing: error))")
            return
        }
    }

    @Test func concurrentPublishersBothLand() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let url = server.url("/social.org")
            let publisher = makePublisher()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<2 {
                    group.addTask {
                        for index in 0..<10 {
                            _ = try await publisher.publish(to: url, token: "secret", maxAttempts: 50) { feed in
                                feed.append(
                                    try PostDraft.post("writer \(writer) post \(index)"), at: fixedDate, timeZone: utc)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = Feed(bytes: try #require(await server.state.files["/social.org"]))
            #expect(stored.posts.count == 21)
            #expect(Set(stored.posts.compactMap(\.id)).count == 21)
        }
    }

    @Test func backoffGrowsAndStaysJitteredAndBounded() {
        let publisher = FeedPublisher(transport: CurlTransport(), retryDelay: .milliseconds(100))
        for attempt in 1...12 {
            let pause = publisher.pause(after: attempt)
            let base = min(Duration.milliseconds(100) * (1 << min(attempt - 1, 10)), .seconds(2))
            #expect(pause >= base * 0.5 && pause <= base * 1.5)
        }
    }
}
