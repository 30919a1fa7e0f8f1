import Foundation
import TestSupport
import Testing

/// The methods of `orgsocial engine` against a local feed host and mirror on 127.0.0.1.
@Suite(.enabled(if: EngineClient.isBuilt), .serialized, .timeLimit(.minutes(1)))
struct EngineMethodTests {
    /// An engine initialized on a fresh host.
    func withEngine(_ body: (EngineClient, PeerHost) async throws -> Void) async throws {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient()
            defer { engine.close() }
            let account = try await engine.result("initialize", host.account)
            try #require(account["canWrite"] as? Bool == true, "\(account)")
            #expect(account["protocolVersion"] as? Int == 1)
            try await body(engine, host)
        }
    }

    @Test func initializeLoadsTheOwnProfileFromTheFeed() async throws {
        try await withEngine { engine, host in
            let account = try await engine.result("initialize", host.account)
            let profile = try #require(account["profile"] as? [String: Any])
            #expect(profile["nick"] as? String == "tester")
            #expect(profile["title"] as? String == "Test feed")
            #expect(profile["followCount"] as? Int == 1)
        }
    }

    @Test func initializeWithAMissingFeedWarnsAndCannotWrite() async throws {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient()
            defer { engine.close() }
            let account = try await engine.result(
                "initialize",
                [
                    "mirror": host.base + "/api", "feed": host.base + "/missing.org",
                    "upload": ["method": "webdav", "url": host.base + "/missing.org"],
                ])
            #expect(account["canWrite"] as? Bool == false)
            #expect((account["warning"] as? String)?.hasPrefix("Could not load your feed: ") == true)
        }
    }

    @Test func publishWritesMentionLinksPropertiesAndClientThenRefreshesTheMirror() async throws {
        try await withEngine { engine, host in
            let published = try await engine.result(
                "publish",
                [
                    "text": "Hi @bob, welcome", "lang": "es", "tags": "#emacs, org",
                    "mentions": ["bob": "https://bob.example/social.org"],
                ])
            let id = try #require(published["timestamp"] as? String)
            #expect(published["url"] as? String == "\(host.feed)#\(id)")
            let content = await host.state.content
            #expect(
                content.hasSuffix(
                    "* Posts\n\n** \(id)\n:PROPERTIES:\n:LANG: es\n:TAGS: emacs org\n:CLIENT: engine-tests\n:END:\n\n"
                        + "Hi [[org-social:https://bob.example/social.org][bob]], welcome\n"))
            #expect(await host.state.refreshes == [host.feed])
            #expect(await host.state.registrations.isEmpty)
        }
    }

    @Test func anEmptyPostIsInvalidParamsAndTouchesNothing() async throws {
        try await withEngine { engine, host in
            let error = try await engine.error("publish", ["text": "   "])
            #expect((error["data"] as? [String: Any])?["kind"] as? String == "invalid_params")
            #expect(await host.state.content == PeerHost.initialFeed)
            #expect(await host.state.refreshes.isEmpty)
        }
    }

    @Test func theTimelineShowsMirrorPostsWithTheViewersReactionAndBoost() async throws {
        try await withEngine { engine, _ in
            let reaction = try await engine.result("react", ["post": PeerHost.bobPost, "emoji": "🎉"])
            let boost = try await engine.result("boost", ["post": PeerHost.bobPost])
            let page = try await engine.result("timeline", ["scope": "following"])
            let posts = try #require(page["posts"] as? [[String: Any]])
            let bob = try #require(posts.first { $0["url"] as? String == PeerHost.bobPost })
            #expect(bob["date"] as? String == "2026-01-10T08:00:00Z")
            let viewer = try #require(bob["viewer"] as? [String: String])
            #expect(
                viewer == [
                    "reaction": "🎉", "reactionTimestamp": try #require(reaction["timestamp"] as? String),
                    "boostTimestamp": try #require(boost["timestamp"] as? String),
                ])
        }
    }

    @Test func editKeepsTheIDAndReplacesTextAndTags() async throws {
        try await withEngine { engine, host in
            let original = try await engine.result("publish", ["text": "first draft", "tags": "old", "mood": "🙂"])
            let id = try #require(original["timestamp"] as? String)
            _ = try await engine.result("edit", ["timestamp": id, "text": "final", "tags": "new"])
            let content = await host.state.content
            #expect(content.contains("** \(id)\n"))
            #expect(content.contains(":TAGS: new\n"))
            #expect(content.contains(":MOOD: 🙂\n"))
            #expect(content.contains("\nfinal\n"))
            #expect(!content.contains("first draft"))
        }
    }

    @Test func pinUnpinAndDeletingThePinnedPostClearsThePin() async throws {
        try await withEngine { engine, host in
            let post = try await engine.result("publish", ["text": "pin me"])
            let id = try #require(post["timestamp"] as? String)
            _ = try await engine.result("pin", ["timestamp": id])
            #expect(await host.state.content.contains("#+PINNED: \(id)\n"))
            _ = try await engine.result("unpin")
            #expect(!(await host.state.content.contains("#+PINNED")))
            _ = try await engine.result("pin", ["timestamp": id])
            _ = try await engine.result("delete", ["timestamp": id])
            let content = await host.state.content
            #expect(!content.contains("#+PINNED"))
            #expect(!content.contains("pin me"))
        }
    }

    @Test func pinningOrDeletingAMissingPostIsNotFound() async throws {
        try await withEngine { engine, _ in
            for method in ["pin", "delete"] {
                let error = try await engine.error(method, ["timestamp": "2001-01-01T00:00:00+0000"])
                #expect(error["code"] as? Int == -32003)
                #expect(error["message"] as? String == "Post not found in your feed.")
            }
        }
    }

    @Test func aVoteNamesTheOptionAsThePollSpellsItAndAnUnknownOptionIsRefused() async throws {
        try await withEngine { engine, host in
            let poll = try await engine.result(
                "publish",
                ["text": "Which editor?", "poll": ["options": ["Emacs", "Vim"], "endsAt": "2099-01-01T00:00:00Z"]])
            let url = try #require(poll["url"] as? String)
            let refused = try await engine.error("vote", ["post": url, "option": "Nano"])
            #expect((refused["message"] as? String)?.contains("not an option") == true)
            _ = try await engine.result("vote", ["post": url, "option": "emacs"])
            #expect(await host.state.content.contains(":POLL_OPTION: Emacs\n"))
            let post = try await engine.result("post", ["post": url])
            #expect((post["poll"] as? [String: Any])?["options"] as? [String] == ["Emacs", "Vim"])
            #expect((post["viewer"] as? [String: Any])?["vote"] as? String == "Emacs")
        }
    }

    @Test func updateProfileAddsNewFieldsAtTheEndOfTheHeaderAndRemovesEmptyOnes() async throws {
        try await withEngine { engine, host in
            let profile = try await engine.result(
                "updateProfile", ["title": "New title", "description": "Hello", "links": ["https://a.example"]])
            #expect(profile["title"] as? String == "New title")
            #expect(await host.state.content.contains("#+DESCRIPTION: Hello\n#+LINK: https://a.example\n\n* Posts"))
            _ = try await engine.result("updateProfile", ["description": ""])
            let content = await host.state.content
            #expect(!content.contains("#+DESCRIPTION"))
            #expect(content.hasPrefix("#+TITLE: New title\n#+NICK: tester\n"))
        }
    }

    @Test func theOwnProfileComesFromTheFeedWhenTheMirrorDoesNotKnowIt() async throws {
        try await withEngine { engine, host in
            _ = try await engine.result("publish", ["text": "My first post"])
            _ = try await engine.result("react", ["post": PeerHost.bobPost, "emoji": "👍"])
            let page = try await engine.result("profile", ["feed": host.feed])
            #expect(page["isOwn"] as? Bool == true)
            #expect((page["profile"] as? [String: Any])?["nick"] as? String == "tester")
            #expect((page["posts"] as? [[String: Any]])?.map { $0["text"] as? String } == ["My first post"])
        }
    }

    @Test func aFeedThatKeepsChangingElsewhereIsAConflictAndNothingIsUploaded() async throws {
        try await withEngine { engine, host in
            await host.state.set(foreignWrites: 3)
            let error = try await engine.error("publish", ["text": "Never uploaded"])
            #expect(error["code"] as? Int == -32007)
            #expect((error["data"] as? [String: Any])?["kind"] as? String == "conflict")
            #expect(!(await host.state.content.contains("Never uploaded")))
        }
    }

    @Test func aFailedUploadAfterALocalSaveIsPendingAndRefreshUploadsIt() async throws {
        try await withServer(try PeerHost()) { host in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let path = folder.path("social.org")
            try PeerHost.initialFeed.write(toFile: path, atomically: true, encoding: .utf8)
            let engine = try EngineClient()
            defer { engine.close() }
            var account = host.account
            account["file"] = path
            _ = try await engine.result("initialize", account)
            await host.state.set(failPuts: true)
            let error = try await engine.error("publish", ["text": "Saved while offline"])
            #expect(error["code"] as? Int == -32006)
            #expect(await host.state.content == PeerHost.initialFeed)
            await host.state.set(failPuts: false)
            let refreshed = try await engine.result("refresh")
            #expect(refreshed["registered"] as? Bool == true)
            #expect(await host.state.content == (try String(contentsOfFile: path, encoding: .utf8)))
            #expect(await host.state.content.contains("Saved while offline"))
        }
    }
}
