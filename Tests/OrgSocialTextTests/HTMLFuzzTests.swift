import OrgSocial
import OrgSocialText
import TestSupport
import Testing

/// Deterministic random HTML: thousands of fragments built from Mastodon's tags, broken markup and
/// text that Org would misread. None may crash the converter, and no output line may be one Org reads
/// as structure: a post made of it parses as exactly one post with that body.
@Suite
struct HTMLFuzzTests {
    private static let texts = [
        "* ", "** ", "*** ", "*", "#+BEGIN_SRC", "#+end_quote", "# ", "#", ":PROPERTIES:", ":END:", ": ", "|", "-----",
        "[fn:1]", "%%(", "\\begin{x}", "[[", "]]", "[[https://x.example][y]]", "&amp;", "&#x2a;", "&#42; ", "&bogus;",
        "&lt;p&gt;", "<", ">", "\n", "\u{A0}", "\u{3000}", "  ", "word", "Émoji 👩🏽‍💻", "日本語", "https://example.com/a",
        "@bob", "#tag", ",", ".", "(", ")", "~", "=", "+", "/", "_", "\t", "\r\n", "- ", "1. ", "\u{200B}",
    ]
    private static let openTags = [
        "<p>", "<br>", "<br />", "</br>", "<strong>", "<b>", "<em>", "<i>", "<del>", "<s>", "<u>", "<code>", "<pre>",
        "<blockquote>", "<ul>", "<ol start=\"3\">", "<li>", "<li value=\"x\">", "<h1>", "<div>", "<span>",
        "<span class=\"invisible\">", "<span class=\"ellipsis\">", "<span class=\"h-card\">",
        "<a href=\"https://m.example/@bob\" class=\"u-url mention\">",
        "<a href=\"https://m.example/tags/x\" class=\"mention hashtag\" rel=\"tag\">",
        "<a href=\"https://e.example/p?a=1&amp;b=2\">", "<a href='https://e.example/[x]'>", "<a>",
        "<a href=javascript:x>",
        "<img alt=\":blob:\" src=x>", "<script>", "<style>", "<custom-tag x=1>", "<!-- ", "-->", "<!DOCTYPE html>",
        "<p class=\"quote-inline\">", "<table><tr><td>", "<hr>",
    ]
    private static let closeTags = [
        "</p>", "</strong>", "</b>", "</em>", "</i>", "</del>", "</code>", "</pre>", "</blockquote>", "</ul>", "</ol>",
        "</li>", "</h1>", "</div>", "</span>", "</a>", "</script>", "</style>", "</custom-tag>", "</td></tr></table>",
    ]

    @Test func randomHTMLNeverCrashesAndNeverYieldsALineOrgMisreads() throws {
        var random = SplitMix64(seed: 20_251_202)
        let converter = HTMLOrgConverter(orgSocialFeeds: ["bob@m.example": "https://bob.example/social.org"])
        let mentions = [StatusContent.Mention(url: "https://m.example/@bob", acct: "bob@m.example", username: "bob")]
        for round in 0..<3000 {
            var html = ""
            for _ in 0..<random.int(40) {
                switch random.int(10) {
                case 0...3: html += random.pick(Self.texts)
                case 4...6: html += random.pick(Self.openTags)
                case 7...8: html += random.pick(Self.closeTags)
                default: html += String(random.pick(Array(Self.texts.joined() + Self.openTags.joined())))
                }
            }
            if random.chance(10) { html = String(html.prefix(random.int(html.count + 1))) }
            let status = StatusContent(
                html: html, spoilerText: random.chance(10) ? random.pick(Self.texts) : "", sensitive: random.chance(5),
                mentions: mentions, tags: random.chance(10) ? [random.pick(Self.texts)] : [],
                attachments: random.chance(10)
                    ? [.init(url: "https://f.example/" + random.pick(Self.texts), description: random.pick(Self.texts))]
                    : [])
            let result = converter.convert(status)
            try Self.expectNoMisreadLine(result.body, html: html, round: round)
            for tag in result.tags {
                #expect(OrgSyntax.isTagWord(tag), "round \(round): tag \(tag)")
            }
            let feed = "* Posts\n** 2025-01-01T00:00:00+0000\n:PROPERTIES:\n:END:\n\n" + result.body + "\n"
            let posts = OrgSocialParser().parse(bytes: Array(feed.utf8)).posts
            #expect(posts.count == 1, "round \(round): \(html.debugDescription) → \(result.body.debugDescription)")
            // And back to Mastodon text without crashing either.
            _ = MastodonTextRenderer().text(fromOrg: result.body, tags: result.tags)
        }
    }

    /// Checks every line against Org's line syntax, written independently of `OrgLineEscaping`.
    private static func expectNoMisreadLine(_ body: String, html: String, round: Int) throws {
        let hazards = try [
            #"^\*+(\s|$)"#, #"^\s*#\+"#, #"^\s*#(\s|$)"#, #"^\s*:(\S*:)?(\s|$)"#, #"^\s*\|"#, #"^\s*-{5,}\s*$"#,
            #"^\[fn:"#, #"^%%\("#, #"^\s*\\begin\{"#,
        ].map { try Regex($0) }
        let opening = try Regex(#"^\s*#\+begin_(example|quote|src( [A-Za-z0-9_+-]+)?)$"#)
        let closing = try Regex(#"^\s*#\+end_(example|quote|src)$"#)
        var open: [String] = []
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            #expect(!line.contains("\r"), "round \(round): carriage return in \(body.debugDescription)")
            if line.firstMatch(of: opening) != nil {
                open.append(line.contains("quote") ? "quote" : "verbatim")
                continue
            }
            if line.firstMatch(of: closing) != nil {
                #expect(!open.isEmpty, "round \(round): unbalanced \(line) in \(body.debugDescription)")
                if !open.isEmpty { open.removeLast() }
                continue
            }
            if open.last == "verbatim" {
                #expect(
                    line.firstMatch(of: try Regex(#"^\s*(\*|#\+)"#)) == nil, "round \(round): \(line.debugDescription)")
                continue
            }
            let misread = hazards.contains { line.firstMatch(of: $0) != nil }
            #expect(!misread, "round \(round): \(line.debugDescription) from \(html.debugDescription)")
        }
        #expect(open.isEmpty, "round \(round): unclosed block in \(body.debugDescription)")
    }
}
