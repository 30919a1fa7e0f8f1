import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import TestSupport
import Testing

/// The Forgejo flavor of ``FakeForge`` (Codeberg, Gitea) answers the contents API as Forgejo documents and
/// implements it (docs/publishing-forges.md), checked with real requests over our curl transport.
@Suite struct FakeForgejoContentsTests {
    static let token = "token fj_test"

    /// Runs `body` with a fake Forgejo holding `ana/feed` (default branch `main`) and a writing token.
    func withForgejo(_ body: (FakeForge, ForgeCalls) async throws -> Void) async throws {
        try await FakeForge.with(.forgejo) { forge in
            await forge.state.addRepository(owner: "ana", repo: "feed")
            await forge.state.addToken("fj_test")
            try await body(forge, ForgeCalls(forge: forge))
        }
    }

    @Test func readsAFileAsOneLineOfBase64WithItsGitBlobSHAAndRawThroughTheRawEndpoint() async throws {
        try await withForgejo { forge, calls in
            let long = String(repeating: "0123456789", count: 10)
            await forge.state.setFile(owner: "ana", repo: "feed", path: "hello.txt", text: "hello world\n")
            await forge.state.setFile(owner: "ana", repo: "feed", path: "long.txt", text: long)

            let hello = try await calls.get("ana", "feed", "hello.txt", ref: "main", authorization: Self.token)
            let longAnswer = try await calls.get("ana", "feed", "long.txt", authorization: Self.token)
            let raw = try await calls.getRaw("ana", "feed", "long.txt", authorization: Self.token)
            let rawMissing = try await calls.getRaw("ana", "feed", "gone.txt", authorization: Self.token)

            #expect(hello.status == 200)
            #expect(jsonString(hello, "sha") == helloWorldBlobSHA)
            #expect(jsonString(hello, "encoding") == "base64")
            #expect(jsonString(hello, "type") == "file")
            #expect(jsonString(longAnswer, "content") == Data(long.utf8).base64EncodedString())
            #expect(raw.status == 200)
            #expect(raw.text == long)
            #expect(rawMissing.status == 404)
            #expect(longAnswer.headers["x-ratelimit-limit"] == nil)
        }
    }

    @Test func createsWithPostAndRefusesToCreateAnExistingFileWith422() async throws {
        try await withForgejo { forge, calls in
            let created = try await calls.write(
                "ana", "feed", "social.org", method: .post, text: "hello world\n", authorization: Self.token)
            let again = try await calls.write(
                "ana", "feed", "social.org", method: .post, text: "mine\n", authorization: Self.token)

            #expect(created.status == 201)
            #expect(jsonString(created, "content.sha") == helloWorldBlobSHA)
            let commits = await forge.state.commits
            #expect(jsonString(created, "commit.sha") == commits.last?.sha)
            #expect(again.status == 422)
            #expect(jsonString(again, "message") == "repository file already exists [path: social.org]")
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "hello world\n")
        }
    }

    @Test func updatesWithPutAndTheCurrentSHAAndRefusesAStaleOrMissingSHAWith422() async throws {
        try await withForgejo { forge, calls in
            let old = await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")
            let current = await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "two\n")

            let stale = try await calls.write(
                "ana", "feed", "social.org", text: "x\n", sha: old, authorization: Self.token)
            let missing = try await calls.write("ana", "feed", "social.org", text: "x\n", authorization: Self.token)
            let updated = try await calls.write(
                "ana", "feed", "social.org", text: "three\n", sha: current, authorization: Self.token)

            #expect(stale.status == 422)
            #expect(jsonString(stale, "message") == "sha does not match [given: \(old), expected: \(current)]")
            #expect(missing.status == 422)
            #expect(updated.status == 200)
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "three\n")
        }
    }

    @Test func anotherWriterAddingAPostBetweenTheReadAndTheWriteMakesTheSHAStale() async throws {
        try await withForgejo { forge, calls in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "#+TITLE: Ana\n\n* Posts\n")
            await forge.state.interleave(feedEdits: [{ feed in try? feed.addKeyword("NICK", value: "ana") }])
            let read = try await calls.get("ana", "feed", "social.org", authorization: Self.token)

            let write = try await calls.write(
                "ana", "feed", "social.org", text: "#+TITLE: Mine\n\n* Posts\n", sha: jsonString(read, "sha"),
                authorization: Self.token)

            #expect(write.status == 422)
            let text = try #require(await forge.state.text(owner: "ana", repo: "feed", path: "social.org"))
            #expect(text.contains("#+NICK: ana"))
            #expect(text.contains("#+TITLE: Ana"))
        }
    }

    @Test func answersCredentialProblemsAsForgejoDoes() async throws {
        try await withForgejo { forge, calls in
            await forge.state.addToken("read_only", access: .readOnly)
            await forge.state.addToken("no_scope", access: .noRepositoryAccess)

            let noToken = try await calls.write("ana", "feed", "a.org", method: .post, text: "x\n")
            let wrongToken = try await calls.get("ana", "feed", "a.org", authorization: "token wrong")
            let bearer = try await calls.write(
                "ana", "feed", "a.org", method: .post, text: "x\n", authorization: "Bearer fj_test")
            let readOnly = try await calls.write(
                "ana", "feed", "b.org", method: .post, text: "x\n", authorization: "token read_only")
            let noScope = try await calls.get("ana", "feed", "a.org", authorization: "token no_scope")
            let unknownRepository = try await calls.get("ana", "nope", "a.org", authorization: Self.token)
            let unknownBranch = try await calls.write(
                "ana", "feed", "c.org", method: .post, text: "x\n", branch: "gone", authorization: Self.token)

            #expect(noToken.status == 401)
            #expect(wrongToken.status == 401)
            #expect(jsonString(wrongToken, "message") == "invalid username, password or token")
            #expect(bearer.status == 201)
            #expect(readOnly.status == 403)
            #expect(jsonString(readOnly, "message")?.hasSuffix("[write:repository]") == true)
            #expect(noScope.status == 403)
            #expect(jsonString(noScope, "message")?.hasSuffix("[read:repository]") == true)
            #expect(unknownRepository.status == 404)
            #expect(unknownBranch.status == 404)
            #expect(await forge.state.commits.count == 1)
            #expect(await forge.state.requests("POST").first?.path == "/api/v1/repos/ana/feed/contents/a.org")
        }
    }

    @Test func aRateLimitAnswers429WithRetryAfterAndNoGitHubHeaders() async throws {
        try await withForgejo { forge, calls in
            await forge.state.limitRate(.secondary(status: 429, retryAfterSeconds: 3))

            let limited = try await calls.write(
                "ana", "feed", "a.org", method: .post, text: "x\n", authorization: Self.token)
            let next = try await calls.write(
                "ana", "feed", "a.org", method: .post, text: "x\n", authorization: Self.token)

            #expect(limited.status == 429)
            #expect(limited.headers["retry-after"] == "3")
            #expect(limited.headers["x-ratelimit-remaining"] == nil)
            #expect(next.status == 201)
        }
    }
}
