import Foundation
import OrgSocial

/// Converts the HTML of others' Mastodon-API statuses to Org post bodies (`mastodon-api.md` §4.1–4.3).
///
/// Reads any HTML without failing (`HTMLTree`): unknown tags keep their text, `<script>`/`<style>`
/// content is dropped, unclosed and misnested tags are closed where HTML would close them. Mastodon's
/// tag set becomes Org:
///
/// | HTML | Org |
/// |---|---|
/// | `<p>`, `<div>` … | paragraphs, one blank line apart |
/// | `<br>` | a line break |
/// | `<strong>`/`<b>`, `<em>`/`<i>`, `<u>`, `<del>`/`<s>`, `<code>` | `*x*`, `/x/`, `_x_`, `+x+`, `~x~` where Org's border rules let the markers work, else the bare text |
/// | headings | a paragraph in `*bold*` (what Mastodon's sanitiser makes of them) |
/// | `<pre>` | `#+begin_example` (or `#+begin_src LANG` for `<code class="language-LANG">`), lines comma-quoted |
/// | `<blockquote>` | `#+begin_quote` … `#+end_quote` |
/// | `<ul>`/`<ol>`/`<li>` | `- item` / `1. item` (`start` and `value` honoured), nested lists indented |
/// | mention (`class` has `mention`, or `@` text matching `mentions[]`) | `[[org-social:FEED][user]]` when ``orgSocialFeeds`` knows the account, else `[[href][@user@domain]]` |
/// | hashtag (`class` has `hashtag`, `rel` has `tag`, or `#` text pointing at a tag page) | `#Tag` in the text, `Tag` in ``OrgStatusText/tags`` |
/// | other link | its full `href` (bare, or `[[href]]` where a bare URL would not parse) when the text is the URL, shortened or not; `[[href][text]]` otherwise |
/// | `<span class="invisible">` | dropped |
/// | entities | decoded; white space (with U+00A0, U+3000) collapsed outside `<pre>` |
///
/// A content warning becomes a `CW: …` first line (`CW: sensitive` for a sensitive status without
/// one), as the Org Social Relay's bridge writes it; media attachments become a last paragraph of
/// `[[url][alt text]]` lines. Every line that Org would read as structure is escaped
/// (`OrgLineEscaping`), and `[[` in text is broken with U+200B so it cannot become a link.
public struct HTMLOrgConverter: Sendable {
    /// The accounts known to be Org Social feeds: `user@domain` (lowercased) → feed URL. Their mentions
    /// become `[[org-social:FEED][user]]`.
    public var orgSocialFeeds: [String: String]

    /// Makes a converter.
    /// - Parameter orgSocialFeeds: `user@domain` (any case) → feed URL of the accounts that are Org Social feeds.
    public init(orgSocialFeeds: [String: String] = [:]) {
        var feeds: [String: String] = [:]
        for (acct, feed) in orgSocialFeeds { feeds[acct.lowercased()] = feed }
        self.orgSocialFeeds = feeds
    }

    /// Converts a status to an Org body and its tags.
    /// - Parameter status: the status's HTML and the fields that explain it.
    /// - Returns: The body (CW line, text, attachments) and the hashtags for `:TAGS:`.
    public func convert(_ status: StatusContent) -> OrgStatusText {
        var renderer = HTMLOrgRenderer(status: status, orgSocialFeeds: orgSocialFeeds)
        var blocks: [String] = []
        let spoiler = HTMLOrgRenderer.collapsingWhitespace(status.spoilerText).trimming([" "])
        if !spoiler.isEmpty {
            blocks.append(
                "CW: "
                    + (spoiler.containsBytes("[[")
                        ? spoiler.replacingBytes("[[", with: "[\u{200B}[") : spoiler))
        } else if status.sensitive {
            blocks.append("CW: sensitive")
        }
        blocks += renderer.blocks(HTMLTree.parse(status.html))
        let media = status.attachments.compactMap(HTMLOrgRenderer.attachmentLine)
        if !media.isEmpty {
            blocks.append(media.joined(separator: "\n"))
        }
        var tags = renderer.tags
        var seen = Set(tags.map { $0.lowercased() })
        for tag in status.tags {
            let name = tag.hasPrefix("#") ? String(tag.dropFirst()) : tag
            if OrgSyntax.isTagWord(name), seen.insert(name.lowercased()).inserted {
                tags.append(name)
            }
        }
        return OrgStatusText(body: blocks.joined(separator: "\n\n"), tags: tags)
    }
}
