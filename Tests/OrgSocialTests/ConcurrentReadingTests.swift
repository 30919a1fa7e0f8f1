import Foundation
import OrgSocial
import Testing

/// Reading a big feed's posts in runs on several threads: the runs cover every post once, in order, and
/// validating in runs finds exactly what one pass finds, whatever the number of runs.
struct ConcurrentReadingTests {
    /// A feed whose posts, in turn, have each kind of problem, bare posts among them, so that the runs split
    /// codes that pass ``Diagnostic/listedPerCode`` in one run, in another, or only across runs.
    static func troubledFeed(posts: Int) -> Feed {
        var text = "#+TITLE: t\n#+NICK: n\n* Posts\n"
        for index in 0..<posts {
            let id = String(format: "2025-05-01T12:%02d:%02d+0100", index / 60 % 60, index % 60)
            switch index % 7 {
            case 0: text += "** \(id)\n:PROPERTIES:\n:LANG: english\n:END:\n\nHello \(index)\n"
            case 1: text += "**\n"
            case 2: text += "** \(id)\n:PROPERTIES:\n:REPLY_TO: nowhere\n:MOOD: 👍\n:END:\n"
            case 3: text += "** \(id)\n:PROPERTIES:\n:POLL_END: soon\n:END:\n\nNo options\n"
            case 4 where index < posts / 3: text += "** \(id)\n:PROPERTIES:\n:TAGS: #ok bad!\n:END:\n\nt\n"
            case 5: text += "** \(id)\n:PROPERTIES:\n:POLL_OPTION: Yes\n:END:\n"
            default: text += "** \(id)\n\n[[org-social:ftp://x/s.org][x]] é\n"
            }
        }
        return Feed(parsing: text)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func validatingInRunsFindsWhatOnePassFinds(threads: Int) {
        let feed = Self.troubledFeed(posts: 2_000)
        var oneKinds: [PostKind] = []
        var runKinds: [PostKind] = []

        let one = FeedValidator().validate(feed, threads: 1, runBytes: 1) { oneKinds.append($0) }
        let runs = FeedValidator().validate(feed, threads: threads, runBytes: 1) { runKinds.append($0) }

        #expect(runs == one)
        #expect(runKinds == oneKinds)
        #expect(oneKinds.count == feed.posts.count)
        #expect(one.contains { $0.omittedCount != nil })
        #expect(one == FeedValidator().validate(feed))
    }

    @Test(arguments: [(1, 1), (2, 1), (4, 100), (3, 1 << 30), (1_000, 1)])
    func runsCoverEveryPostOnceInOrder(count: Int, minimumBytes: Int) {
        let posts = Self.troubledFeed(posts: 300).posts

        let runs = posts.runs(count: count, minimumBytes: minimumBytes)

        #expect(!runs.isEmpty && runs.count <= count)
        #expect(runs.allSatisfy { !$0.isEmpty })
        #expect(runs.first?.lowerBound == posts.startIndex && runs.last?.upperBound == posts.endIndex)
        #expect(zip(runs, runs.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
        if minimumBytes == 1 << 30 { #expect(runs.count == 1) }
        // Reading the runs in turn reads the list.
        var read: [Post] = []
        for run in runs {
            var iterator = posts.makeIterator(over: run)
            while let post = iterator.next() { read.append(post) }
        }
        #expect(read == Array(posts))
    }

    @Test func runsOfAFeedWithoutPostsAreNone() {
        #expect(Feed(parsing: "#+TITLE: t\n").posts.runs(count: 4, minimumBytes: 1).isEmpty)
    }

    @Test func runsShareTheBytesAboutEqually() {
        let posts = Feed(parsing: "* Posts\n" + String(repeating: "** x\nsome text\n", count: 1_000)).posts

        let runs = posts.runs(count: 4, minimumBytes: 1)

        #expect(runs.map(\.count) == [250, 250, 250, 250])
        #expect(posts.byteCount(at: 0) == "** x\nsome text\n".utf8.count)
        #expect(posts.indices.map { posts.byteCount(at: $0) }.reduce(0, +) == posts[0].rawBytes.count * 1_000)
    }

    @Test func concurrentMapKeepsTheOrderOfItsInputs() {
        #expect(concurrentMap(Array(0..<100)) { $0 * $0 } == (0..<100).map { $0 * $0 })
        #expect(concurrentMap([Int]()) { $0 }.isEmpty)
        #expect(concurrentMap([7]) { $0 + 1 } == [8])
    }
}
