import Foundation
import HTTPClient
import HTTPCore
import OrgSocial
import TestSupport
import Testing

/// The GitHub flavor of ``FakeForge`` answers the contents API as GitHub documents it
/// (docs/publishing-forges.md), checked with real requests over our curl transport.
@Suite struct FakeGitHubContentsTests {
    static let bearer = "Bearer ghp_test"

    /// Runs `body` with a fake GitHub holding `ana/feed` (default branch `main`, also `pages`) and a
    /// writing token.
    func withGitHub(
        largeFileThreshold: Int = 1024, _ body: (FakeForge, ForgeCalls) async throws -> Void
    ) async throws {
        try await FakeForge.with(.github, largeFileThreshold: largeFileThreshold) { forge in
            await forge.state.addRepository(owner: "ana", repo: "feed", otherBranches: ["pages"])
            await forge.state.addToken("ghp_test")
            try await body(forge, ForgeCalls(forge: forge))
        }
    }

    // MARK: - Reading

    @Test func readsAFileAsBase64InLinesOfSixtyWithItsGitBlobSHA() async throws {
        try await withGitHub { forge, calls in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "hello.txt", text: "hello world\n")
            let long = String(repeating: "0123456789", count: 10)
            await forge.state.setFile(owner: "ana", repo: "feed", path: "long.txt", text: long)

            let hello = try await calls.get("ana", "feed", "hello.txt", authorization: Self.bearer)
            let answer = try await calls.get("ana", "feed", "long.txt", authorization: Self.bearer)

            #expect(hello.status == 200)
            #expect(jsonString(hello, "sha") == helloWorldBlobSHA)
            #expect(jsonString(hello, "type") == "file")
            #expect(jsonString(hello, "encoding") == "base64")
            #expect(jsonObject(hello)["size"] as? Int == 12)
            let content = try #require(jsonString(answer, "content"))
            let lines = content.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.dropLast().allSatisfy { $0.count <= 60 } && lines.first?.count == 60)
            #expect(content.hasSuffix("\n"))
            let decoded = Data(base64Encoded: content, options: .ignoreUnknownCharacters)
            #expect(decoded.map { String(decoding: $0, as: UTF8.self) } == long)
        }
    }

    @Test func answersAMissingFileAnUnknownRefAndAnUnknownRepositoryWith404() async throws {
        try await withGitHub { _, calls in
            let missing = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let unknownRef = try await calls.get("ana", "feed", "social.org", ref: "gone", authorization: Self.bearer)
            let unknownRepository = try await calls.get("ana", "nope", "social.org", authorization: Self.bearer)

            #expect(missing.status == 404)
            #expect(jsonString(missing, "message") == "Not Found")
            #expect(unknownRef.status == 404)
            #expect(jsonString(unknownRef, "message") == "No commit found for the ref gone")
            #expect(unknownRepository.status == 404)
            #expect(jsonString(unknownRepository, "message") == "Not Found")
        }
    }

    @Test func answersAFileAboveTheLimitWithoutContentAndItsBytesThroughTheRawMediaType() async throws {
        try await withGitHub(largeFileThreshold: 16) { forge, calls in
            let text = String(repeating: "a long line\n", count: 4)
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: text)

            let object = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let raw = try await calls.get(
                "ana", "feed", "social.org", authorization: Self.bearer, accept: "application/vnd.github.raw+json")

            #expect(object.status == 200)
            #expect(jsonString(object, "encoding") == "none")
            #expect(jsonString(object, "content") == "")
            #expect(jsonString(object, "sha") == FakeForgeState.blobSHA(Array(text.utf8)))
            #expect(raw.status == 200)
            #expect(raw.text == text)
        }
    }

    // MARK: - Writing

    @Test func createsAMissingFileWith201AndRecordsTheCommit() async throws {
        try await withGitHub { forge, calls in
            let answer = try await calls.write(
                "ana", "feed", "social.org", text: "hello world\n", message: "First post", authorization: Self.bearer)

            #expect(answer.status == 201)
            #expect(jsonString(answer, "content.sha") == helloWorldBlobSHA)
            let commits = await forge.state.commits
            #expect(jsonString(answer, "commit.sha") == commits.last?.sha)
            #expect(commits.map(\.message) == ["First post"])
            #expect(commits.map(\.branch) == ["main"])
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "hello world\n")
        }
    }

    @Test func replacesAFileWith200WhenTheSHAIsCurrent() async throws {
        try await withGitHub { forge, calls in
            let sha = await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")

            let answer = try await calls.write(
                "ana", "feed", "social.org", text: "hello world\n", sha: sha, authorization: Self.bearer)

            #expect(answer.status == 200)
            #expect(jsonString(answer, "content.sha") == helloWorldBlobSHA)
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "hello world\n")
        }
    }

    @Test func refusesAStaleSHAWith409AndKeepsTheFile() async throws {
        try await withGitHub { forge, calls in
            let old = await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "two\n")

            let answer = try await calls.write(
                "ana", "feed", "social.org", text: "mine\n", sha: old, authorization: Self.bearer)

            #expect(answer.status == 409)
            #expect(jsonString(answer, "message") == "social.org does not match \(old)")
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "two\n")
        }
    }

    @Test func refusesToReplaceAFileWithoutSHAWith422() async throws {
        try await withGitHub { forge, calls in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")

            let answer = try await calls.write("ana", "feed", "social.org", text: "mine\n", authorization: Self.bearer)

            #expect(answer.status == 422)
            #expect(jsonString(answer, "message") == "Invalid request.\n\n\"sha\" wasn't supplied.")
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "one\n")
        }
    }

    @Test func anotherWriterBetweenTheReadAndTheWriteMakesTheSHAStale() async throws {
        try await withGitHub { forge, calls in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")
            await forge.state.interleave([{ $0 + Array("theirs\n".utf8) }])
            let read = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let sha = try #require(jsonString(read, "sha"))

            let first = try await calls.write(
                "ana", "feed", "social.org", text: "one\nmine\n", sha: sha, authorization: Self.bearer)
            let reread = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let second = try await calls.write(
                "ana", "feed", "social.org", text: "one\ntheirs\nmine\n", sha: jsonString(reread, "sha"),
                authorization: Self.bearer)

            #expect(first.status == 409)
            #expect(second.status == 200)
            #expect(
                await forge.state.commits.map(\.message) == ["Edited elsewhere", "Another writer", "Publish the feed"])
            #expect(await forge.state.text(owner: "ana", repo: "feed", path: "social.org") == "one\ntheirs\nmine\n")
        }
    }

    @Test func keepsAFilePerBranchAndAnswers404ForAnUnknownBranch() async throws {
        try await withGitHub { forge, calls in
            let created = try await calls.write(
                "ana", "feed", "social.org", text: "pages\n", branch: "pages", authorization: Self.bearer)
            let onPages = try await calls.get("ana", "feed", "social.org", ref: "pages", authorization: Self.bearer)
            let onMain = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let unknown = try await calls.write(
                "ana", "feed", "social.org", text: "x\n", branch: "gone", authorization: Self.bearer)

            #expect(created.status == 201)
            #expect(onPages.status == 200)
            #expect(onMain.status == 404)
            #expect(unknown.status == 404)
            #expect(jsonString(unknown, "message") == "Branch gone not found")
            #expect(await forge.state.commits.map(\.branch) == ["pages"])
            let put = try #require(await forge.state.requests("PUT").first)
            #expect(put.json["branch"] == "pages")
            #expect(put.json["message"] == "Publish the feed")
            #expect(put.headers["Authorization"] == Self.bearer)
            #expect(await forge.state.requests("GET").first?.query["ref"] == "pages")
        }
    }

    // MARK: - Credentials

    @Test func answersCredentialProblemsAsGitHubDoes() async throws {
        try await withGitHub { forge, calls in
            await forge.state.addToken("read_only", access: .readOnly)
            await forge.state.addToken("no_repo", access: .noRepositoryAccess)
            await forge.state.addRepository(owner: "ana", repo: "secret", isPrivate: true)

            let noToken = try await calls.write("ana", "feed", "a.org", text: "x\n")
            let wrongToken = try await calls.get("ana", "feed", "a.org", authorization: "Bearer wrong")
            let tokenScheme = try await calls.write(
                "ana", "feed", "a.org", text: "x\n", authorization: "token ghp_test")
            let readOnly = try await calls.write("ana", "feed", "b.org", text: "x\n", authorization: "Bearer read_only")
            let hiddenPrivate = try await calls.get("ana", "secret", "a.org", authorization: "Bearer no_repo")
            let anonymousPrivate = try await calls.get("ana", "secret", "a.org")

            #expect(noToken.status == 401)
            #expect(wrongToken.status == 401)
            #expect(jsonString(wrongToken, "message") == "Bad credentials")
            #expect(tokenScheme.status == 201)
            #expect(readOnly.status == 403)
            #expect(jsonString(readOnly, "message") == "Resource not accessible by personal access token")
            #expect(hiddenPrivate.status == 404)
            #expect(anonymousPrivate.status == 404)
            #expect(await forge.state.commits.count == 1)
        }
    }

    // MARK: - Rate limits and forced answers

    @Test func everyAnswerCarriesTheRateLimitHeaders() async throws {
        try await withGitHub { _, calls in
            let first = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let second = try await calls.write("ana", "feed", "social.org", text: "x\n", authorization: Self.bearer)

            for answer in [first, second] {
                #expect(answer.headers["x-ratelimit-limit"] == "5000")
                #expect(Int(answer.headers["x-ratelimit-reset"] ?? "") ?? 0 > Int(Date().timeIntervalSince1970))
            }
            #expect(first.headers["x-ratelimit-remaining"] == "4999")
            #expect(second.headers["x-ratelimit-remaining"] == "4998")
        }
    }

    @Test func thePrimaryLimitAnswers403WithNothingRemainingAndTheResetTime() async throws {
        try await withGitHub { forge, calls in
            await forge.state.limitRate(.primary(status: 403, resetAfterSeconds: 30))
            let before = Int(Date().timeIntervalSince1970)

            let limited = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let after = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)

            #expect(limited.status == 403)
            #expect(limited.headers["x-ratelimit-remaining"] == "0")
            let reset = try #require(Int(limited.headers["x-ratelimit-reset"] ?? ""))
            #expect((before + 29)...(before + 32) ~= reset)
            #expect(jsonString(limited, "message")?.hasPrefix("API rate limit exceeded") == true)
            #expect(after.status == 404)
            #expect(after.headers["x-ratelimit-remaining"] != "0")
        }
    }

    @Test func aSecondaryLimitAnswers429WithRetryAfter() async throws {
        try await withGitHub { forge, calls in
            await forge.state.setFile(owner: "ana", repo: "feed", path: "social.org", text: "one\n")
            await forge.state.limitRate(.secondary(status: 429, retryAfterSeconds: 7), requests: 2)

            let first = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let second = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)
            let third = try await calls.get("ana", "feed", "social.org", authorization: Self.bearer)

            #expect([first.status, second.status, third.status] == [Int]([429, 429, 200]))
            #expect(first.headers["retry-after"] == "7")
            #expect(jsonString(first, "message")?.contains("secondary rate limit") == true)
            #expect(third.headers["retry-after"] == nil)
        }
    }

    @Test func aForcedStatusAnswersTheNextWriteAndWritesNothing() async throws {
        try await withGitHub { forge, calls in
            await forge.state.forceStatuses([502])

            let forced = try await calls.write("ana", "feed", "social.org", text: "x\n", authorization: Self.bearer)
            let next = try await calls.write("ana", "feed", "social.org", text: "x\n", authorization: Self.bearer)

            #expect(forced.status == 502)
            #expect(next.status == 201)
            #expect(await forge.state.commits.count == 1)
        }
    }
}
