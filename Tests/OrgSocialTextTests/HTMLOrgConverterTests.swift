import OrgSocialText
import Testing

/// HTML → Org for others' statuses (`mastodon-api.md` §4.1–4.3, §6.4 item 8).
@Suite
struct HTMLOrgConverterTests {
    private static let zwsp = "\u{200B}"

    private func org(_ html: String, feeds: [String: String] = [:], mentions: [StatusContent.Mention] = []) -> String {
        HTMLOrgConverter(orgSocialFeeds: feeds).convert(StatusContent(html: html, mentions: mentions)).body
    }

    @Test func mastodonMarkupBecomesOrgWithMentionsHashtagsAndFullLinks() {
        let html =
            #"<p>Hello <span class="h-card" translate="no"><a href="https://mastodon.example/@bob" class="u-url mention">@<span>bob</span></a></span> "#
            + #"and <span class="h-card"><a href="https://other.example/@carol" class="u-url mention">@<span>carol</span></a></span>!<br />"#
            + #"See <a href="https://example.com/very/long/path/to/a/page" target="_blank" rel="nofollow noopener" translate="no">"#
            + #"<span class="invisible">https://</span><span class="ellipsis">example.com/very/long/path/to/</span>"#
            + #"<span class="invisible">a/page</span></a> <a href="https://mastodon.example/tags/OrgMode" class="mention hashtag" rel="tag">#<span>OrgMode</span></a></p>"#
            + "<p>Second &amp; last</p>"
        let status = StatusContent(
            html: html,
            mentions: [
                .init(url: "https://mastodon.example/@bob", acct: "bob", username: "bob"),
                .init(url: "https://other.example/@carol", acct: "carol@other.example", username: "carol"),
            ], tags: ["orgmode", "extra", "not a tag"])
        let converter = HTMLOrgConverter(orgSocialFeeds: ["Carol@Other.example": "https://carol.example/social.org"])
        let result = converter.convert(status)
        #expect(
            result.body
                == "Hello [[https://mastodon.example/@bob][@bob@mastodon.example]] and "
                + "[[org-social:https://carol.example/social.org][carol]]!\n"
                + "See https://example.com/very/long/path/to/a/page #OrgMode\n\nSecond & last")
        #expect(result.tags == ["OrgMode", "extra"])
    }

    @Test func aMentionNotInMentionsIsNamedFromItsLink() {
        #expect(
            org(#"<a class="u-url mention" href="https://pixelfed.example/dan">@dan</a> hi"#)
                == "[[https://pixelfed.example/dan][@dan@pixelfed.example]] hi")
        // Text starting with @ but no mention class and no mentions[] entry: an ordinary link.
        #expect(org(#"<a href="https://x.example/@eve">@eve</a>"#) == "[[https://x.example/@eve][@eve]]")
    }

    @Test func linesOrgWouldMisreadAreEscaped() {
        let lines = [
            "* not a heading", "** nor this", "***", "#+TITLE: x", "#+begin_src", "# comment", "#", ":PROPERTIES:",
            ":END:", ":ID: 1", ": fixed", ":smile: hi", ":PROPERTIES::x:", "| table", "-----", "[fn:1] note",
            "%%(diary)", "\\begin{equation}",
        ]
        let safe = ["*bold* start", "#hashtag start", "- list", "-- dash", "text: x", "text"]
        let html = "<p>" + (lines + safe).map { $0.replacingEntities() }.joined(separator: "<br />") + "</p>"
        let expected = lines.map { Self.zwsp + $0 } + safe
        #expect(org(html) == expected.joined(separator: "\n"))
    }

    @Test func formattingTagsBecomeOrgMarkupWhereOrgReadsIt() {
        let html =
            "<p><strong>bold</strong>, <em>it</em>, <del>gone</del>, <u>under</u>, <code>x = 1</code> and in<b>word</b>s, "
            + "<b> spaced </b>, <s>a+b</s>, <code>a~b</code></p>"
            + "<pre><code class=\"language-swift\">let a = 1\n* star\n#+end_src\n</code></pre>"
            + "<pre>plain\n  #+KEY: v</pre>"
            + "<blockquote><p>quoted</p><p>* twice</p></blockquote>"
            + "<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol start=\"3\"><li>three</li><li value=\"7\">seven</li><li>eight</li></ol>"
            + "<h2>Title</h2>"
        #expect(
            org(html)
                == "*bold*, /it/, +gone+, _under_, ~x = 1~ and inwords, *spaced* , a+b, =a~b=\n\n"
                + "#+begin_src swift\nlet a = 1\n,* star\n,#+end_src\n#+end_src\n\n"
                + "#+begin_example\nplain\n  ,#+KEY: v\n#+end_example\n\n"
                + "#+begin_quote\nquoted\n\n\(Self.zwsp)* twice\n#+end_quote\n\n"
                + "- one\n- two\n  - nested\n\n3. three\n7. seven\n8. eight\n\n*Title*")
    }

    @Test func contentWarningAndMediaFrameTheBody() {
        let status = StatusContent(
            html: "<p>Body</p>", spoilerText: "spoilers  for\nthe film", sensitive: true,
            attachments: [
                .init(url: "https://files.example/a.png", description: "A cat [sleeping]", type: "image"),
                .init(url: "https://files.example/b b.mp4", description: nil, type: "video"),
            ])
        #expect(
            HTMLOrgConverter().convert(status).body
                == "CW: spoilers for the film\n\nBody\n\n[[https://files.example/a.png][A cat [sleeping]\(Self.zwsp)]]\n"
                + "[[https://files.example/b%20b.mp4][video]]")
        #expect(
            HTMLOrgConverter().convert(StatusContent(html: "<p>x</p>", sensitive: true)).body == "CW: sensitive\n\nx")
    }

    @Test func linksKeepTheirFullTargetAndParseAsLinks() {
        #expect(org(#"<a href="https://example.com/a">a page</a>"#) == "[[https://example.com/a][a page]]")
        #expect(org(#"<a href="https://e.example/x">https://e.example/x</a>abc"#) == "[[https://e.example/x]]abc")
        #expect(org(#"(<a href="https://e.example/x">e.example/x</a>), next"#) == "(https://e.example/x), next")
        #expect(org(#"<a href="https://e.example/x.">https://e.example/x.</a>"#) == "[[https://e.example/x.]]")
        #expect(org(#"<a href="https://e.example/[a]">link</a>"#) == "[[https://e.example/%5Ba%5D][link]]")
        #expect(org(#"<a href="gemini://g.example/">gemini://g.example/</a>"#) == "[[gemini://g.example/]]")
        #expect(org(#"<a>no target</a> <a href="relative">rel</a>"#) == "no target rel")
        #expect(org("<p>literal [[x]] and [[y][z]]</p>") == "literal [\(Self.zwsp)[x]] and [\(Self.zwsp)[y][z]]")
    }

    @Test func whitespaceAndEntitiesAreNormalised() {
        #expect(org("<p>a&nbsp;&nbsp;b\u{3000}c\n  d &lt;tag&gt; &eacute;&#x1F600;</p>") == "a b c d <tag> é😀")
        #expect(org("  <p>  lead</p>\n\n<p>trail  <br>  </p>  ") == "lead\n\ntrail")
    }

    @Test func anyHTMLIsReadWithoutLosingText() {
        #expect(
            org("<p><custom-tag>kept</custom-tag> <script>drop()</script><style>.x{}</style>text</p>") == "kept text")
        #expect(org("<p><strong>never closed") == "*never closed*")
        #expect(org("<p><b>a<i>b</b>c</i></p>") == "abc")
        #expect(org("</p></b>stray ends</li></ul>") == "stray ends")
        #expect(org("<div><p>one<div>two</div></p></div>") == "one\n\ntwo")
        #expect(
            org(
                "<p>quote-inline</p><p class=\"quote-inline\">RE: <a href=\"https://x.example/@a/1\">https://x.example/@a/1</a></p>"
            ) == "quote-inline\n\nRE: https://x.example/@a/1")
        #expect(org("<ul><li><blockquote><p>q</p></blockquote></li></ul>") == "-\n  #+begin_quote\n  q\n  #+end_quote")
        #expect(org("<pre>a\r\n* b\rc</pre>") == "#+begin_example\na\n,* b\nc\n#+end_example")
        #expect(org("") == "")
        #expect(org("<p></p><br><br>") == "")
    }
}

extension String {
    /// The text with `&`, `<` and `>` written as HTML entities.
    fileprivate func replacingEntities() -> String {
        var result = ""
        for character in self {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
