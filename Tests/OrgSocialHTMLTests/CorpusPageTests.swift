import Foundation
import OrgSocial
import OrgSocialHTML
import TestSupport
import Testing

/// The pages of the 15 real feeds: every visible post on exactly one page, balanced markup, no script.
@Suite struct CorpusPageTests {
    @Test(.enabled(if: SharedCorpus.feeds != nil, "../shared/corpus/feeds is absent"))
    func rendersEveryRealFeed() throws {
        #expect(SharedCorpus.feedFiles.count == 15)
        for file in SharedCorpus.feedFiles {
            let feed = Feed(bytes: Array(try Data(contentsOf: file)))
            let page = FeedPage(feed: feed, stylesheet: .linked("/orgsocial.css"), orgFileHref: "?format=org")
            let name = file.lastPathComponent
            var shown = 0
            for number in 1...page.pageCount {
                let html = try #require(page.html(for: .page(number)), "\(name) page \(number)")
                let articles = html.components(separatedBy: "<article ").count - 1
                shown += articles
                #expect(html.components(separatedBy: "</article>").count - 1 == articles, "\(name)")
                #expect(!html.lowercased().contains("<script"), "\(name)")
                for tag in ["div", "ul", "ol", "blockquote", "pre", "table", "p"] {
                    let opened =
                        html.components(separatedBy: "<\(tag)>").count + html.components(separatedBy: "<\(tag) ").count
                        - 2
                    #expect(opened == html.components(separatedBy: "</\(tag)>").count - 1, "\(name) <\(tag)>")
                }
                #expect(html.utf8.count < 200_000, "\(name) page \(number): \(html.utf8.count) bytes")
            }
            #expect(shown == page.visiblePosts.count, "\(name)")
            #expect(page.html(for: .page(page.pageCount + 1)) == nil)
        }
    }
}
