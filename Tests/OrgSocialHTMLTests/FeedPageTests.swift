import Foundation
import OrgSocial
import OrgSocialHTML
import Testing

/// A feed with one post of every kind, a pinned post, a mention-only post and Org markup.
private let everyKind = """
    #+TITLE: Alice's notes
    #+NICK: alice
    #+DESCRIPTION: Writing about *Emacs* and tea.
    #+AVATAR: https://alice.example/avatar.png
    #+LINK: https://alice.example
    #+LOCATION: Lisbon
    #+LANGUAGE: en
    #+PINNED: 2025-01-01T09:00:00+0000
    #+FOLLOW: bob https://bob.example/social.org

    * Posts
    ** 2025-01-01T09:00:00+0000
    :PROPERTIES:
    :TAGS: intro
    :END:
    Hello, this is my /pinned/ post.
    ** 2025-02-01T10:00:00+0000
    :PROPERTIES:
    :REPLY_TO: https://bob.example/social.org#2025-01-31T08:00:00+0000
    :END:
    I agree with [[org-social:https://bob.example/social.org][bob]].
    ** 2025-02-02T10:00:00+0000
    :PROPERTIES:
    :REPLY_TO: https://bob.example/social.org#2025-01-31T08:00:00+0000
    :MOOD: ❤
    :END:
    ** 2025-02-03T10:00:00+0000
    :PROPERTIES:
    :INCLUDE: https://carol.example/social.org#2025-02-01T00:00:00+0000
    :END:
    ** 2025-02-04T10:00:00+0000
    :PROPERTIES:
    :POLL_END: 2025-02-11T10:00:00+0000
    :END:
    Tea or coffee?
    - [ ] Tea
    - [ ] Coffee
    ** 2025-02-05T10:00:00+0000
    :PROPERTIES:
    :REPLY_TO: https://bob.example/social.org#2025-02-04T00:00:00+0000
    :POLL_OPTION: Tea
    :END:
    ** 2025-02-06T10:00:00+0000
    :PROPERTIES:
    :VISIBILITY: mention
    :END:
    A secret for [[org-social:https://bob.example/social.org][bob]].
    ** 2025-02-07T10:00:00+0000
    Markup: *bold*, /italic/, =code= and [[https://example.org/x][a link]].

    - one
    - two

    #+BEGIN_SRC sh
    echo "<hi>"
    #+END_SRC

    #+BEGIN_QUOTE
    Quoted.
    #+END_QUOTE
    *** A sub-heading
    Below it.

    """

/// The page of `text` as the node renders it.
private func page(_ text: String, _ selection: FeedPage.Selection = .page(1)) -> String? {
    FeedPage(feed: Feed(parsing: text), stylesheet: .linked("/orgsocial.css"), orgFileHref: "?format=org")
        .html(for: selection)
}

/// The `id`s of the page's articles, in order.
private func articleIDs(_ html: String) -> [String] {
    html.components(separatedBy: "<article ").dropFirst().compactMap { chunk in
        guard let start = chunk.range(of: "id=\""), let end = chunk[start.upperBound...].firstIndex(of: "\"") else {
            return nil
        }
        return String(chunk[start.upperBound..<end])
    }
}

@Suite struct FeedPageTests {
    @Test func showsTheProfileThenThePinnedPostThenTheRestNewestFirst() throws {
        let html = try #require(page(everyKind))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(html.contains("<h1>Alice&#x27;s notes</h1>"))
        #expect(html.contains("<p class=\"nick\">@alice</p>"))
        #expect(html.contains("<p class=\"description\">Writing about <b>Emacs</b> and tea.</p>"))
        #expect(html.contains("<img class=\"avatar\" src=\"https://alice.example/avatar.png\""))
        #expect(html.contains("<a rel=\"me nofollow\" href=\"https://alice.example\">"))
        #expect(html.contains("<li>Lisbon</li>"))
        #expect(html.contains("Follows 1 feed"))
        #expect(
            articleIDs(html) == [
                "2025-01-01T09:00:00+0000", "2025-02-07T10:00:00+0000", "2025-02-05T10:00:00+0000",
                "2025-02-04T10:00:00+0000", "2025-02-03T10:00:00+0000", "2025-02-02T10:00:00+0000",
                "2025-02-01T10:00:00+0000",
            ])
        #expect(html.contains("class=\"post kind-post pinned\""))
        #expect(html.contains("<link rel=\"stylesheet\" href=\"/orgsocial.css\">"))
    }

    @Test func leavesOutMentionOnlyPosts() throws {
        let html = try #require(page(everyKind))
        #expect(!html.contains("A secret"))
        #expect(page(everyKind, .post("2025-02-06T10:00:00+0000")) == nil)
    }

    @Test func saysWhatKindEachPostIsAndLinksWhatItRefersTo() throws {
        let html = try #require(page(everyKind))
        let parent = "https://bob.example/social.org#2025-01-31T08:00:00+0000"
        #expect(html.contains("Reply to <a href=\"\(parent)\">a post on bob.example</a>"))
        #expect(html.contains("<span class=\"mood\">❤</span> to <a href=\"\(parent)\">a post on bob.example</a>"))
        #expect(html.contains("Boosted <a href=\"https://carol.example/social.org#2025-02-01T00:00:00+0000\">"))
        #expect(html.contains("<ul class=\"poll-options\"><li>Tea</li><li>Coffee</li></ul>"))
        #expect(
            html.contains("Poll closes <time datetime=\"2025-02-11T10:00:00+0000\">2025-02-11 10:00:00+0000</time>"))
        #expect(!html.contains("[ ] Tea"))
        #expect(html.contains("Voted “Tea” in <a href=\"https://bob.example/social.org#2025-02-04T00:00:00+0000\">"))
        #expect(html.contains("<a class=\"mention\" href=\"https://bob.example/social.org\">@bob</a>"))
        #expect(html.contains("class=\"post kind-reaction\""))
        #expect(html.contains("class=\"post kind-boost\""))
        #expect(html.contains("<span class=\"tag\">#intro</span>"))
    }

    @Test func rendersOrgMarkup() throws {
        let html = try #require(page(everyKind))
        #expect(
            html.contains(
                "<b>bold</b>, <i>italic</i>, <code>code</code> and <a href=\"https://example.org/x\">a link</a>"))
        #expect(html.contains("<ul><li>one</li><li>two</li></ul>"))
        #expect(html.contains("<pre>echo &quot;&lt;hi&gt;&quot;</pre>"))
        #expect(html.contains("<blockquote>\n<p>Quoted.</p>\n</blockquote>"))
        #expect(html.contains("<h3>A sub-heading</h3>"))
    }

    @Test func givesEveryPostAnAnchorAndAPageOfItsOwn() throws {
        let html = try #require(page(everyKind))
        #expect(html.contains("<a class=\"permalink\" href=\"#2025-02-07T10:00:00+0000\">"))
        #expect(html.contains("<a class=\"single\" href=\"?post=2025-02-07T10:00:00%2B0000\">"))
        let single = try #require(page(everyKind, .post("2025-02-01T10:00:00+0000")))
        #expect(articleIDs(single) == ["2025-02-01T10:00:00+0000"])
        #expect(single.contains("<meta property=\"og:type\" content=\"article\">"))
        #expect(single.contains("<meta property=\"og:title\" content=\"alice: I agree with @bob.\">"))
        #expect(single.contains("<meta property=\"og:description\" content=\"I agree with @bob.\">"))
        #expect(page(everyKind, .post("2030-01-01T00:00:00+0000")) == nil)
    }

    @Test func carriesLinkPreviewTags() throws {
        let html = try #require(page(everyKind))
        #expect(html.contains("<title>Alice&#x27;s notes</title>"))
        #expect(html.contains("<meta property=\"og:title\" content=\"Alice&#x27;s notes\">"))
        #expect(html.contains("<meta property=\"og:description\" content=\"Writing about Emacs and tea.\">"))
        #expect(html.contains("<meta property=\"og:image\" content=\"https://alice.example/avatar.png\">"))
        #expect(html.contains("<meta name=\"twitter:card\" content=\"summary\">"))
        #expect(html.contains("<meta name=\"twitter:image\" content=\"https://alice.example/avatar.png\">"))
        #expect(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"))
    }

    @Test func escapesEverythingTheFeedSays() throws {
        let hostile = """
            #+TITLE: <script>alert(1)</script>
            #+NICK: "><img src=x onerror=alert(2)>
            #+DESCRIPTION: </title><script>alert(3)</script>
            #+AVATAR: javascript:alert(4)
            #+LINK: javascript:alert(5)

            * Posts
            ** 2025-01-01T00:00:00+0000"><script>alert(6)</script>
            :PROPERTIES:
            :TAGS: <b>x</b>
            :MOOD: <i>
            :END:
            <script>alert(7)</script> [[javascript:alert(8)][click]] <style>body{}</style>

            """
        let html = try #require(page(hostile))
        let body = try #require(html.components(separatedBy: "</head>").last)
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("href=\"javascript:"))
        #expect(!html.contains("content=\"javascript:"))
        #expect(!body.contains("<style"))
        #expect(!html.contains("<b>x</b>"))
        #expect(html.contains("&lt;script&gt;alert(7)&lt;/script&gt;"))
        #expect(!html.contains("class=\"avatar\""))
    }

    @Test func pagesLongFeedsWithOlderAndNewerLinks() throws {
        var text = "#+TITLE: Many\n#+NICK: many\n\n* Posts\n"
        for index in 0..<120 {
            text +=
                "** 2025-01-01T00:\(String(format: "%02d", index / 60)):\(String(format: "%02d", index % 60))+0000\n"
            text += "Post number \(index).\n"
        }
        let first = try #require(page(text))
        #expect(articleIDs(first).count == 50)
        #expect(articleIDs(first).first == "2025-01-01T00:01:59+0000")
        #expect(first.contains("<a rel=\"next\" href=\"?page=2\">Older posts</a>"))
        #expect(!first.contains("Newer posts"))
        let second = try #require(page(text, .page(2)))
        #expect(articleIDs(second).first == "2025-01-01T00:01:09+0000")
        #expect(second.contains("<a rel=\"prev\" href=\"?\">Newer posts</a>"))
        let third = try #require(page(text, .page(3)))
        #expect(articleIDs(third).count == 20)
        #expect(!third.contains("Older posts"))
        #expect(page(text, .page(4)) == nil)
        #expect(page(text, .page(0)) == nil)
        let all = try #require(page(text, .all))
        #expect(articleIDs(all).count == 120)
    }

    @Test func keepsAPageOf500PostsUnder100KB() throws {
        var text = "#+TITLE: Busy\n#+NICK: busy\n\n* Posts\n"
        for index in 0..<500 {
            let minute = String(format: "%02d", index % 60)
            text += "** 2025-01-\(String(format: "%02d", 1 + index / 60))T00:\(minute):00+0000\n"
            text += ":PROPERTIES:\n:TAGS: emacs org\n:END:\n"
            text += "A post of ordinary length, with *some markup* and a [[https://example.org/\(index)][link]], "
            text += "about as long as people write them on a social network.\n"
        }
        let html = try #require(page(text))
        #expect(html.utf8.count < 100_000)
        #expect(FeedPage(feed: Feed(parsing: text), stylesheet: .embedded, orgFileHref: "social.org").pageCount == 10)
    }

    @Test func embedsTheStylesheetInAStandaloneCopy() throws {
        let feed = Feed(parsing: everyKind)
        let html = try #require(FeedPage(feed: feed, stylesheet: .embedded, orgFileHref: "social.org").html(for: .all))
        #expect(html.contains("<style>\n:root {"))
        #expect(!html.contains("<link rel=\"stylesheet\""))
        #expect(html.contains("<a href=\"social.org\" type=\"text/plain\">The file itself</a>"))
        #expect(articleIDs(html).count == 7)
    }

    @Test func showsAnEmptyFeed() throws {
        let html = try #require(page("#+TITLE: Quiet\n"))
        #expect(html.contains("<p class=\"empty\">No posts yet.</p>"))
        #expect(!html.contains(" lang="))
    }
}
