import Foundation
import OrgSocial
import OrgSocialClient
import OrgSocialHTML
import OrgSocialText
import TootClient

/// The pure steps: parse and edit a feed, write a post, count a status, render a page.
enum FeedSteps {
    /// The feed the steps start from: a profile and one post.
    static let startingFeed = """
        #+TITLE: Ana's journal
        #+NICK: ana
        #+LANGUAGE: en

        * Posts
        ** 2026-01-10T09:15:00+0100
        :PROPERTIES:
        :LANG: en
        :END:

        Hello from an app that embeds orgsocial.
        """ + "\n"

    /// OrgSocial: parses the starting feed (losslessly), then edits its header and follows `followURL`.
    /// - Parameter followURL: the feed to follow.
    /// - Returns: the edited feed's text.
    /// - Throws: ``ConsumerFailure``, or OrgSocial's error when an edit is refused.
    static func parseAndEdit(following followURL: String) throws -> String {
        var feed = Feed(parsing: startingFeed)
        try check(feed.text == startingFeed, "parsing and serializing changed the feed")
        try check(feed.profile.nick == "ana", "the nick is \(feed.profile.nick ?? "missing"), not ana")
        try feed.setKeyword("DESCRIPTION", to: "Bread and Emacs.")
        _ = try feed.follow(followURL, label: "bob")
        let edited = Feed(parsing: feed.text)
        try check(edited.profile.follows.count == 1, "the edited feed follows \(edited.profile.follows.count) feeds")
        try check(edited.posts.count == 1, "the edited feed has \(edited.posts.count) posts, not 1")
        print("OrgSocial: parsed ana's feed, set DESCRIPTION and followed \(followURL)")
        return feed.text
    }

    /// OrgSocialClient: appends a post with `PostWriter` (offline: nothing is sent).
    /// - Parameter feedText: the feed to append to.
    /// - Returns: the feed's text with the new post.
    /// - Throws: ``ConsumerFailure``, or `PostWriterError` when the post is refused.
    static func writePost(into feedText: String) throws -> String {
        let writer = PostWriter()
        let feedURL = URL(fileURLWithPath: "/tmp/ana/social.org")
        let written = try writer.appendPost(
            to: feedText, feedURL: feedURL, options: NewPostOptions(text: "Written with PostWriter.", lang: "en"))
        let posts = Feed(parsing: written.updatedContent).posts
        try check(posts.count == 2, "after PostWriter the feed has \(posts.count) posts, not 2")
        try check(written.postURL.hasPrefix(feedURL.absoluteString + "#"), "odd post URL \(written.postURL)")
        print("OrgSocialClient: PostWriter appended \(written.postURL)")
        return written.updatedContent
    }

    /// TootClient + OrgSocialText: counts a status as Mastodon does, with the limits discovery would give a
    /// Mastodon server, and splits a long one into a thread that fits.
    /// - Throws: ``ConsumerFailure``, or OrgSocialText's error when the text cannot be split.
    static func countStatus() throws {
        let server = InstanceLimits.mastodonDefaults
        let limits = MastodonTextLimits(maxCharacters: server.maxCharacters, charactersPerURL: server.charactersPerURL)
        let status = "Reading https://example.org/a/very/long/path/to/an/article/about/org/social today"
        let count = limits.count(status)
        // A URL counts as 23 characters however long it is.
        try check(count == "Reading ".count + 23 + " today".count, "counted \(count) characters")
        let long = String(repeating: "Org Social is plain text. ", count: 40)
        let parts = try ThreadSplitter(limits: limits).split(long)
        try check(parts.count > 1 && parts.allSatisfy { limits.fits($0) }, "split into \(parts.count) parts")
        print(
            "TootClient + OrgSocialText: the status counts \(count) of \(server.maxCharacters); "
                + "a \(long.count)-character post splits into \(parts.count) statuses")
    }

    /// OrgSocialHTML: renders the feed's web page, with its stylesheet embedded.
    /// - Parameter feedText: the feed.
    /// - Throws: ``ConsumerFailure``.
    static func renderPage(of feedText: String) throws {
        let page = FeedPage(feed: Feed(parsing: feedText), stylesheet: .embedded, orgFileHref: "social.org")
        guard let html = page.html(for: .page(1)) else { throw ConsumerFailure("the feed page has no page 1") }
        try check(html.hasPrefix("<!DOCTYPE html>"), "the page does not start with a doctype")
        try check(html.contains("Hello from an app that embeds orgsocial."), "the page lacks the post")
        let body = OrgHTMLConverter.html(from: "Some *bold* text")
        try check(body.contains("<b>bold</b>") || body.contains("<strong>bold</strong>"), "Org to HTML gave \(body)")
        print("OrgSocialHTML: rendered a \(html.utf8.count)-byte page of \(page.visiblePosts.count) posts")
    }
}
