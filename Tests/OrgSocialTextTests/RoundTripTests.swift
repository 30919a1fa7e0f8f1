import OrgSocialText
import Testing

/// Org → Mastodon text → the HTML a server builds from that text → Org keeps the text: converting the
/// result to Mastodon text again gives the same text. The HTML is written by hand in each server's style
/// (`mastodon-api.md` §4.1): Mastodon (invisible/ellipsis spans, `h-card` mentions), GoToSocial (full
/// link text, `rel="tag nofollow …"`), Akkoma/Pleroma (`<br>` paragraphs, `data-tag` hashtags) and
/// Pixelfed (`<br />` with line breaks, `/discover/tags/` links).
@Suite
struct RoundTripTests {
    private static let org = """
        Hello [[org-social:https://bob.example/social.org][bob]], read [[https://example.com/articles/2025/a-long-article-name][my *article*]] today.

        Second paragraph with https://example.org/x and a line
        break.
        """

    private static let mastodonText = """
        Hello bob (https://bob.example/social.org), read my article (https://example.com/articles/2025/a-long-article-name) today.

        Second paragraph with https://example.org/x and a line
        break.

        #emacs
        """

    private static let styles: [(server: String, html: String)] = [
        (
            "mastodon",
            #"<p>Hello bob (<a href="https://bob.example/social.org" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">bob.example/social.org</span><span class="invisible"></span></a>), "#
                + #"read my article (<a href="https://example.com/articles/2025/a-long-article-name" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="ellipsis">example.com/articles/2025/a-lo</span><span class="invisible">ng-article-name</span></a>) today.</p>"#
                + #"<p>Second paragraph with <a href="https://example.org/x" target="_blank" rel="nofollow noopener" translate="no"><span class="invisible">https://</span><span class="">example.org/x</span><span class="invisible"></span></a> and a line<br />break.</p>"#
                + #"<p><a href="https://mastodon.example/tags/emacs" class="mention hashtag" rel="tag">#<span>emacs</span></a></p>"#
        ),
        (
            "gotosocial",
            #"<p>Hello bob (<a href="https://bob.example/social.org" rel="nofollow noreferrer noopener" target="_blank">https://bob.example/social.org</a>), "#
                + #"read my article (<a href="https://example.com/articles/2025/a-long-article-name" rel="nofollow noreferrer noopener" target="_blank">https://example.com/articles/2025/a-long-article-name</a>) today.</p>"#
                + #"<p>Second paragraph with <a href="https://example.org/x" rel="nofollow noreferrer noopener" target="_blank">https://example.org/x</a> and a line<br>break.</p>"#
                + #"<p><a href="https://gts.example/tags/emacs" class="mention hashtag" rel="tag nofollow noreferrer noopener" target="_blank">#<span>emacs</span></a></p>"#
        ),
        (
            "akkoma",
            #"Hello bob (<a href="https://bob.example/social.org" rel="ugc">https://bob.example/social.org</a>), "#
                + #"read my article (<a href="https://example.com/articles/2025/a-long-article-name" rel="ugc">https://example.com/articles/2025/a-long-article-name</a>) today.<br><br>"#
                + #"Second paragraph with <a href="https://example.org/x" rel="ugc">https://example.org/x</a> and a line<br>break.<br><br>"#
                + #"<a class="hashtag" data-tag="emacs" href="https://akkoma.example/tag/emacs" rel="tag ugc">#emacs</a>"#
        ),
        (
            "pixelfed",
            "Hello bob (<a href=\"https://bob.example/social.org\" rel=\"external nofollow noopener\" target=\"_blank\">https://bob.example/social.org</a>), "
                + "read my article (<a href=\"https://example.com/articles/2025/a-long-article-name\" rel=\"external nofollow noopener\" target=\"_blank\">https://example.com/articles/2025/a-long-article-name</a>) today.<br />\n<br />\n"
                + "Second paragraph with <a href=\"https://example.org/x\" rel=\"external nofollow noopener\" target=\"_blank\">https://example.org/x</a> and a line<br />\nbreak.<br />\n<br />\n"
                + "<a href=\"https://pixelfed.example/discover/tags/emacs?src=hash\" title=\"#emacs\" class=\"u-url hashtag\" rel=\"external nofollow noopener\">#emacs</a>"
        ),
    ]

    @Test func theTextSurvivesEveryServerStyle() {
        let renderer = MastodonTextRenderer()
        #expect(renderer.text(fromOrg: Self.org, tags: ["emacs"]) == Self.mastodonText)
        for (server, html) in Self.styles {
            let back = HTMLOrgConverter().convert(StatusContent(html: html, tags: ["emacs"]))
            #expect(back.tags == ["emacs"], "\(server)")
            #expect(
                back.body == """
                    Hello bob (https://bob.example/social.org), read my article (https://example.com/articles/2025/a-long-article-name) today.

                    Second paragraph with https://example.org/x and a line
                    break.

                    #emacs
                    """, "\(server)")
            #expect(renderer.text(fromOrg: back.body, tags: back.tags) == Self.mastodonText, "\(server)")
        }
    }

    @Test func aBridgedMentionComesBackAsTheSameOrgMention() {
        let feed = "https://carol.example/social.org"
        let org = "Hi [[org-social:\(feed)][carol]], *welcome*!"
        let text = MastodonTextRenderer(bridgedAccounts: [feed: "carol@masto.example"]).text(fromOrg: org)
        #expect(text == "Hi @carol@masto.example, welcome!")
        let html =
            #"<p>Hi <span class="h-card" translate="no"><a href="https://masto.example/@carol" class="u-url mention">@<span>carol</span></a></span>, welcome!</p>"#
        let status = StatusContent(
            html: html,
            mentions: [.init(url: "https://masto.example/@carol", acct: "carol@masto.example", username: "carol")])
        let back = HTMLOrgConverter(orgSocialFeeds: ["carol@masto.example": feed]).convert(status)
        #expect(back.body == "Hi [[org-social:\(feed)][carol]], welcome!")
    }

    @Test func quotesCodeAndEscapedLinesSurviveMastodon() {
        let org =
            "Look:\n\n#+begin_quote\nWise words\n#+end_quote\n\n#+begin_src sh\necho hi\n#+end_src\n\n\u{200B}* starred"
        let renderer = MastodonTextRenderer()
        let text = renderer.text(fromOrg: org)
        #expect(text == "Look:\n\n> Wise words\n\necho hi\n\n* starred")
        let html = "<p>Look:</p><p>&gt; Wise words</p><p>echo hi</p><p>* starred</p>"
        let back = HTMLOrgConverter().convert(StatusContent(html: html))
        #expect(back.body == "Look:\n\n> Wise words\n\necho hi\n\n\u{200B}* starred")
        #expect(renderer.text(fromOrg: back.body) == text)
    }
}
