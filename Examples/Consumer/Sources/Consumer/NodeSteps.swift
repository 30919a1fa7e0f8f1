import FeedHosting
import Foundation
import OrgSocial
import OrgSocialClient

/// The node's steps: serve feeds from a folder (FeedHosting) and read a timeline from it (OrgSocialClient).
enum NodeSteps {
    /// A node serving a folder, and where its feeds are.
    struct RunningNode: Sendable {
        /// The node.
        let node: FeedNode
        /// The folder it serves.
        let root: URL

        /// The URL of the feed in `<root>/<name>/social.org`.
        /// - Parameter name: the feed's folder.
        /// - Returns: the URL.
        func feedURL(_ name: String) -> String { "\(node.siteURL)/\(name)/social.org" }

        /// Writes `text` as `<root>/<name>/social.org`, which the node serves from the next request on.
        /// - Parameters:
        ///   - text: the feed.
        ///   - name: the feed's folder.
        /// - Throws: the file system's error.
        func publish(_ text: String, as name: String) throws {
            let folder = root.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("social.org"), options: .atomic)
        }
    }

    /// Bob's feed: one post, which ana's timeline must show.
    static let bobFeed = """
        #+TITLE: Bob's bakery
        #+NICK: bob

        * Posts
        ** 2026-01-11T08:00:00+0100
        :PROPERTIES:
        :LANG: en
        :END:

        Fresh sourdough this morning.
        """ + "\n"

    /// FeedHosting: starts a node on 127.0.0.1 (a free port) serving `root`.
    /// - Parameter root: the folder to serve, created when missing.
    /// - Returns: the running node.
    /// - Throws: the file system's error, `FeedHostingError` or `HTTPServerError`.
    static func startNode(root: URL) throws -> RunningNode {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        var configuration = FeedNode.Configuration(root: root.path)
        configuration.port = 0
        let node = try FeedNode(configuration: configuration)
        print("FeedHosting: a node serves \(root.path) at \(node.siteURL)")
        return RunningNode(node: node, root: root)
    }

    /// OrgSocialClient: reads ana's timeline from the node, which must hold bob's post.
    /// - Parameter node: the node serving ana and bob.
    /// - Throws: ``ConsumerFailure``, or `OrgSocialClientError`.
    static func fetchTimeline(from node: RunningNode) async throws {
        let fetcher = TimelineFetcher(options: TimelineOptions(useRelay: false))
        let timeline = try await fetcher.fetchTimeline(ownFeedURL: node.feedURL("ana"))
        let bodies = timeline.posts.map(\.post.body)
        try check(
            bodies.contains { $0.contains("Fresh sourdough") }, "the timeline lacks bob's post: \(bodies)")
        try check(timeline.failures.isEmpty, "feeds failed: \(timeline.failures)")
        print(
            "OrgSocialClient: TimelineFetcher read \(timeline.posts.count) posts from \(timeline.statuses.count) feeds")
    }
}
