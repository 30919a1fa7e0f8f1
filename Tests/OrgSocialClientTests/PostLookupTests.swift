import Foundation
import OrgSocial
import OrgSocialClient
import TestSupport
import Testing

/// ``PostLookup``: post URLs to posts, each feed read once, failures as short reasons.
@Suite("PostLookup")
struct PostLookupTests {
    @Test func findsPostsReadingEachFeedOnceAndExplainsWhatItCannotFind() async throws {
        try await withFarm { farm in
            await farm.state.set(
                "/ana.org",
                feedText(
                    nick: "ana",
                    posts: [
                        ("2026-01-01T10:00:00+0000", [:], "First."), ("2026-01-01T11:00:00+0000", [:], "Second."),
                    ]))
            let ana = farm.url("/ana.org")
            let urls = [
                "\(ana)#2026-01-01T10:00:00+0000", "\(ana)#2026-01-01T11:00:00+0000",
                "\(ana)#2026-01-01T12:00:00+0000", farm.url("/gone.org") + "#2026-01-01T10:00:00+0000",
                "no fragment here",
            ]
            let found = await PostLookup(fetcher: FeedFetcher()).posts(at: urls)
            #expect(found.count == urls.count)
            guard case .found(let first) = found[urls[0]], case .found(let second) = found[urls[1]] else {
                Issue.record("the first two posts were not found")
                return
            }
            #expect(first.post.body == "First.")
            #expect(second.author.nick == "ana")
            #expect(second.url == urls[1])
            if case .failed(let reason) = found[urls[2]] {
                #expect(reason.contains("no post with this ID"))
            } else {
                Issue.record("a missing ID was found")
            }
            if case .failed(let reason) = found[urls[3]] {
                #expect(reason == "HTTP 404 (not found)")
            } else {
                Issue.record("a missing feed was found")
            }
            if case .failed(let reason) = found[urls[4]] {
                #expect(reason.contains("not a post URL"))
            } else {
                Issue.record("a malformed URL was found")
            }
            #expect(await farm.state.requests(for: "/ana.org").count == 1)
        }
    }
}
