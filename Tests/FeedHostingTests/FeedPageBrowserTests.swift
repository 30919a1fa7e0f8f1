import Foundation
import OrgSocial
import OrgSocialHTML
import OrgSocialText
import TestSupport
import Testing

@testable import FeedHosting

/// Whether the browser test runs: always under CI (where a missing Chromium is a failure), else when
/// Chromium is installed.
private let browserTestRuns: Bool = {
    if HeadlessChromium.executable == nil, ProcessInfo.processInfo.environment["CI"] == nil {
        print("FeedPageBrowserTests: SKIPPED: chromium is not installed (scripts/setup --with-browser); CI runs it.")
        return false
    }
    return true
}()

/// A real browser loads a feed page from the node: the posts are there in order, a post URL's anchor
/// scrolls to that post, and a hostile post's script did not run.
@Suite(.serialized) struct FeedPageBrowserTests {
    /// A feed of 30 posts, the oldest of which tries every way of running a script.
    static func feed() -> String {
        var text = "#+TITLE: Browser test\n#+NICK: tester\n\n* Posts\n"
        text += "** 2025-01-01T00:00:00+0000\n"
        text += "<script>document.title = 'pwned'</script> <img src=x onerror=\"document.title = 'pwned'\">\n"
        text += "[[javascript:document.title='pwned'][click me]]\n"
        for index in 1..<30 {
            text += "** 2025-01-01T00:\(String(format: "%02d", index)):00+0000\n"
            text += "Post \(index): a paragraph long enough to take some room on a phone's screen, so that the "
            text += "page is much longer than the window and an anchor has to scroll.\n"
        }
        return text
    }

    @Test(.enabled(if: browserTestRuns)) func loadsThePageInOrderScrollsToAnAnchorAndRunsNoScript() async throws {
        let executable = try #require(
            HeadlessChromium.executable, "chromium is missing: scripts/setup installs it under CI")
        try await withNode { node, root in
            try root.write(Self.feed(), to: "alice/social.org")
            let url = "http://127.0.0.1:\(node.port)/alice/social.org"
            let oldest = "2025-01-01T00:00:00+0000"
            let report = try await offPool { () throws -> BrowserReport in
                let browser = try HeadlessChromium(executable: executable)
                defer { browser.close() }
                try browser.load(url)
                let top = try BrowserReport.Page(browser)
                let topShot = try PNGImage(browser.screenshot())
                // A person opening a post's URL: a new document, straight at the anchor.
                try browser.load("about:blank")
                try browser.load(url + "#" + oldest)
                let anchored = try BrowserReport.Page(browser)
                let anchoredShot = try PNGImage(browser.screenshot())
                return BrowserReport(top: top, topShot: topShot, anchored: anchored, anchoredShot: anchoredShot)
            }
            let ids = report.top.articleIDs
            #expect(ids.count == 30)
            #expect(ids.first == "2025-01-01T00:29:00+0000")
            #expect(ids.last == oldest)
            #expect(ids == ids.sorted(by: >))
            #expect(report.top.title == "Browser test")
            #expect(report.top.scriptCount == 0)
            #expect(report.top.bodyText.contains("<script>document.title = 'pwned'</script>"))
            #expect(report.top.scrollY == 0)

            // The oldest post is far below the first screen: the browser scrolled to it, and its
            // highlight (`.post:target`) is what the screenshot shows.
            #expect(report.anchored.scrollY > 2_000)
            #expect(report.anchored.targetTop >= 0 && report.anchored.targetTop < 700)
            #expect(report.anchored.title == "Browser test")
            let target = FeedPageStylesheet.targetBackground
            #expect(report.topShot.count(red: target.red, green: target.green, blue: target.blue) == 0)
            #expect(report.anchoredShot.count(red: target.red, green: target.green, blue: target.blue) > 5_000)
        }
    }
}

extension FeedPageBrowserTests {
    @Test(.enabled(if: browserTestRuns && SharedCorpus.feeds != nil))
    func showsEachRealFeedWithAllItsFirstPagePosts() async throws {
        let executable = try #require(HeadlessChromium.executable, "chromium is missing: setup installs it under CI")
        try await withNode { node, root in
            var expected: [(path: String, ids: [String], title: String)] = []
            for (index, file) in SharedCorpus.feedFiles.enumerated() {
                let bytes = Array(try Data(contentsOf: file))
                try root.write(bytes, to: "feed\(index)/social.org")
                let page = FeedPage(feed: Feed(bytes: bytes), stylesheet: .embedded, orgFileHref: "social.org")
                let html = try #require(page.html(for: .page(1)))
                let ids = html.components(separatedBy: "<article ").dropFirst().map { chunk in
                    chunk.components(separatedBy: "id=\"").dropFirst().first?.components(separatedBy: "\"").first ?? ""
                }
                expected.append(("/feed\(index)/social.org", ids, page.displayName))
            }
            let port = node.port
            let paths = expected.map(\.path)
            let seen = try await offPool { () throws -> [[String: String]] in
                let browser = try HeadlessChromium(executable: executable)
                defer { browser.close() }
                return try paths.map { path in
                    try browser.load("http://127.0.0.1:\(port)\(path)")
                    let facts = try browser.evaluate(
                        "JSON.stringify({ids: [...document.querySelectorAll('article')].map(a => a.id).join('\\n'), "
                            + "title: document.title, scripts: String(document.scripts.length)})")
                    let json = try #require(facts as? String)
                    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String])
                }
            }
            #expect(seen.count == 15)
            for (page, facts) in zip(expected, seen) {
                let ids = facts["ids"].map { $0.isEmpty ? [] : $0.components(separatedBy: "\n") } ?? []
                // Posts without an ID have no anchor: the browser reports an empty id for them too.
                #expect(ids == page.ids.map(OrgHTMLConverter.unescape), "\(page.path)")
                #expect(facts["scripts"] == "0", "\(page.path)")
                #expect(facts["title"] == page.title, "\(page.path)")
            }
        }
    }
}

/// What the browser saw: the page at the top, and the page opened at the oldest post's anchor.
private struct BrowserReport: Sendable {
    /// Facts read from the page by DevTools.
    struct Page: Sendable {
        /// The `id`s of the articles, in document order.
        let articleIDs: [String]
        /// `document.title`.
        let title: String
        /// How many `<script>` elements the document has.
        let scriptCount: Int
        /// The text of the body (what a reader sees).
        let bodyText: String
        /// How far the window is scrolled, in CSS pixels.
        let scrollY: Double
        /// The top of the oldest post relative to the window, in CSS pixels.
        let targetTop: Double

        /// Reads the facts from the page loaded in `browser`.
        init(_ browser: HeadlessChromium) throws {
            let expression = """
                JSON.stringify({ids: [...document.querySelectorAll('article')].map(a => a.id), title: document.title,
                  scripts: document.scripts.length, text: document.body.innerText, y: window.scrollY,
                  top: document.getElementById('2025-01-01T00:00:00+0000').getBoundingClientRect().top})
                """
            guard let json = try browser.evaluate(expression) as? String,
                let facts = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            else { throw HeadlessChromium.Failure(description: "the page's facts could not be read") }
            articleIDs = facts["ids"] as? [String] ?? []
            title = facts["title"] as? String ?? ""
            scriptCount = facts["scripts"] as? Int ?? -1
            bodyText = facts["text"] as? String ?? ""
            scrollY = (facts["y"] as? NSNumber)?.doubleValue ?? -1
            targetTop = (facts["top"] as? NSNumber)?.doubleValue ?? -1
        }
    }

    /// The page at the top.
    let top: Page
    /// Its screenshot.
    let topShot: PNGImage
    /// The page opened at the oldest post's anchor.
    let anchored: Page
    /// Its screenshot.
    let anchoredShot: PNGImage
}
