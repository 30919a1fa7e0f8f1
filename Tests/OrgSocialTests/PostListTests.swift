import Foundation
import OrgSocial
import TestSupport
import Testing

/// `PostList`: iterating reads the posts one after another with one reader; what it reads is exactly what
/// subscripting reads, for every layout of post.
struct PostListTests {
    static let texts = [
        "",
        "#+TITLE: t\n* Posts\n",
        "* Posts\n**\n**\n** \n",
        "* Posts\n** 2025-01-01T00:00:00+0000\n:PROPERTIES:\n:LANG: en\n:END:\n\nHello\n\n** x\nbody\n:PROPERTIES:\n:A: b\n:END:\nmore\n",
        "* Posts\r\n** 2025-01-01T00:00:00+0000\r\n:PROPERTIES:\r\n:LANG: en\r\n:END:\r\nCRLF\r\n**\r\n",
        "* Posts\r**\rx\r** y\r",
        "* Posts\n** a\n:PROPERTIES:\n:LANG: en\n* Other\n** b\n* Posts\n** c\n[[org-social:http://x/s.org][x]]\n",
        "* Posts\n** 2025-01-01T00:00:00+0000\n:PROPERTIES:\n:END:\n**\nno final line break",
    ]

    @Test(arguments: texts)
    func iteratingReadsWhatSubscriptingReads(_ text: String) {
        let posts = Feed(parsing: text).posts

        let iterated = Array(posts)
        let subscripted = posts.indices.map { posts[$0] }

        #expect(iterated == subscripted)
        #expect(iterated.map(\.rawText) == subscripted.map(\.rawText))
        #expect(iterated.map(\.index) == Array(posts.indices))
        #expect(iterated.map(\.mentions) == subscripted.map(\.mentions))
    }

    @Test(.enabled(if: SharedCorpus.feeds != nil, "../shared/corpus/feeds is absent"))
    func iteratingTheCorpusReadsWhatSubscriptingReads() throws {
        let folder = try #require(SharedCorpus.feeds)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".org") }
        #expect(!names.isEmpty)
        for name in names {
            let posts = Feed(bytes: Array(try Data(contentsOf: folder.appendingPathComponent(name)))).posts
            #expect(Array(posts) == posts.indices.map { posts[$0] }, "\(name)")
        }
    }

    /// Skipping bare posts hands over exactly the headlines with no drawer and no body, by line, and reads
    /// every other post.
    @Test(arguments: texts)
    func skippingBarePostsPassesOverHeadlinesAlone(_ text: String) {
        let posts = Feed(parsing: text).posts
        var iterator = posts.makeIterator()
        var skipped: [Int] = []
        var read: [Post] = []

        while let post = iterator.next(skippingBare: { skipped.append($0) }) { read.append(post) }

        #expect((skipped + read.map(\.line)).sorted() == posts.map(\.line))
        let bare = posts.filter { skipped.contains($0.line) }
        #expect(bare.allSatisfy { $0.properties.isEmpty && $0.hasEmptyBody && $0.kind == .post })
        #expect(read == posts.filter { !skipped.contains($0.line) })
    }
}
