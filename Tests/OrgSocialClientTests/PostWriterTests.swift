import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// `PostWriter` and `NewPostOptions`, the OrgSocialKit-style API.
struct PostWriterTests {
    private let feedURL = URL(string: "https://ana.example.org/social.org") ?? URL(fileURLWithPath: "/")

    @Test func appendPostIsPureAndReturnsThePostURL() throws {
        let options = NewPostOptions(text: "Hello from Swift!", lang: "en", tags: "swift orgsocial")
        let (updated, postURL) = try PostWriter().appendPost(
            to: sampleFeed, feedURL: feedURL, options: options, at: fixedDate, timeZone: utc)
        #expect(postURL == "https://ana.example.org/social.org#2026-01-02T03:04:05+0000")
        #expect(updated.hasPrefix(sampleFeed))
        let post = try #require(Feed(parsing: updated).posts.last)
        #expect(post.body == "Hello from Swift!")
        #expect(post.language == "en")
        #expect(post.value(of: "TAGS") == "swift orgsocial")
        #expect(post.client == "orgsocial")
        // Parse → serialize → parse gives the same feed.
        #expect(Feed(parsing: Feed(parsing: updated).text) == Feed(parsing: updated))
    }

    @Test func appendPostCreatesThePostsSection() throws {
        let (updated, _) = try PostWriter().appendPost(
            to: "#+TITLE: T\n#+NICK: t\n", feedURL: feedURL, options: NewPostOptions(text: "First"), at: fixedDate,
            timeZone: utc)
        let feed = Feed(parsing: updated)
        #expect(feed.hasPostsSection)
        #expect(feed.posts.map(\.body) == ["First"])
    }

    @Test func optionsPickTheKindOfPost() throws {
        let target = "https://bob.example.org/social.org#2026-01-01T00:00:00+0000"
        #expect(try NewPostOptions(text: "", replyTo: target, mood: "👍").makeDraft().mood == "👍")
        #expect(try NewPostOptions(text: "", replyTo: target, mood: "👍").makeDraft().body.isEmpty)
        #expect(try NewPostOptions(text: "Agreed", replyTo: target).makeDraft().replyTo?.description == target)
        #expect(try NewPostOptions(text: "", include: target).makeDraft().include?.description == target)
        #expect(try NewPostOptions(text: "Read this", include: target).makeDraft().body == "Read this")
        let group = try NewPostOptions(text: "Hi group", group: "Emacs https://relay.example.org").makeDraft()
        #expect(group.group?.name == "Emacs")
        #expect(try NewPostOptions(text: "x", client: "my-app").makeDraft().client == "my-app")
        #expect(try NewPostOptions(text: "x", client: nil).makeDraft().client == nil)
    }

    @Test func invalidOptionsAreATypedError() {
        #expect(throws: PostWriterError.self) { try NewPostOptions(text: "  ").makeDraft() }
        #expect(throws: PostWriterError.self) { try NewPostOptions(text: "x", lang: "English").makeDraft() }
        #expect(throws: PostWriterError.self) { try NewPostOptions(text: "x", replyTo: "nonsense").makeDraft() }
        #expect(throws: PostWriterError.self) { try NewPostOptions(text: "x", visibility: .mention).makeDraft() }
        do {
            _ = try NewPostOptions(text: "x", lang: "English").makeDraft()
        } catch PostWriterError.invalidOptions(let message) {
            #expect(message.contains("English"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func publishPostAppendsOnTheServer() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/social.org", sampleFeed, token: "secret")
            let writer = PostWriter(publisher: makePublisher())
            let (postURL, result) = try await writer.publishPost(
                NewPostOptions(text: "Published"), to: server.url("/social.org"), token: "secret", at: fixedDate,
                timeZone: utc)
            #expect(postURL == server.url("/social.org").absoluteString + "#2026-01-02T03:04:05+0000")
            #expect(result.value.body == "Published")
            #expect(await server.state.text("/social.org") == result.feed.text)
        }
    }

    @Test func publishPostViaHost() async throws {
        try await FakeFeedServer.with { server in
            let writer = PostWriter(publisher: makePublisher())
            let account = try await writer.publisher.signup(host: server.url("/"), nick: "ana")
            let (postURL, _) = try await writer.publishPost(
                NewPostOptions(text: "Via host"), viaHost: account.vfile, publicURL: account.publicURL, at: fixedDate,
                timeZone: utc)
            #expect(postURL == account.publicURL.absoluteString + "#2026-01-02T03:04:05+0000")
            #expect(await server.state.text("/ana/social.org")?.contains("Via host") == true)
        }
    }
}
