import Foundation
import RelayCore
import TestSupport

/// The feeds of the multi-process test, served by a ``FeedFarm``: a hub, and `count` feeds `f0`, `f1`, …
/// whose every post mentions the hub, so `/mentions/?feed=<hub>` lists every post indexed and the hub's
/// event stream gets a `mention` for every new one. Version 1 of a feed has one post; version 2 adds a
/// second one.
struct ClusterFeeds: Sendable {
    /// The farm serving them.
    let farm: FeedFarm
    /// How many feeds mention the hub.
    let count: Int

    /// The ID of the post of version 1.
    static let firstPostID = "2025-01-01T00:00:00+0000"
    /// The ID of the post version 2 adds.
    static let secondPostID = "2025-01-02T00:00:00+0000"

    /// The hub's path.
    let hubPath = "/hub/social.org"
    /// The hub's URL.
    var hub: String { farm.url(hubPath) }

    /// Feed `index`'s path.
    func path(_ index: Int) -> String { "/f\(index)/social.org" }

    /// Feed `index`'s URL.
    func url(_ index: Int) -> String { farm.url(path(index)) }

    /// Every path served, the hub's first.
    var allPaths: [String] { [hubPath] + (0..<count).map(path) }

    /// Every feed URL, the hub's first (the order they are registered in).
    var allURLs: [String] { allPaths.map(farm.url) }

    /// Feed `index`'s text in `version` (1 or 2).
    func text(_ index: Int, version: Int) -> String {
        var text = "#+TITLE: Feed \(index)\n#+NICK: f\(index)\n\n* Posts\n"
        text += "** \(Self.firstPostID)\n:PROPERTIES:\n:END:\n\nHello [[org-social:\(hub)][hub]] from f\(index).\n\n"
        if version >= 2 {
            text += "** \(Self.secondPostID)\n:PROPERTIES:\n:END:\n\nf\(index) again, [[org-social:\(hub)][hub]].\n\n"
        }
        return text
    }

    /// The URLs of the posts that mention the hub once every feed is at `version`.
    func mentionURLs(upTo version: Int) -> Set<String> {
        var urls = Set((0..<count).map { url($0) + "#" + Self.firstPostID })
        if version >= 2 { urls.formUnion((0..<count).map { url($0) + "#" + Self.secondPostID }) }
        return urls
    }

    /// The posts version 2 adds.
    var secondPostURLs: Set<String> { Set((0..<count).map { url($0) + "#" + Self.secondPostID }) }

    /// Serves the hub and version 1 of every feed, and adds them all to `store`'s crawl list, the hub first.
    ///
    /// - Parameter store: The relay's store.
    /// - Throws: The store's error.
    func serveAndRegister(in store: any RelayCrawlStore) async throws {
        await farm.state.set(hubPath, "#+TITLE: Hub\n#+NICK: hub\n\n* Posts\n")
        for index in 0..<count { await farm.state.set(path(index), text(index, version: 1)) }
        let now = Date()
        for url in allURLs { _ = try await store.addFeed(url, now: now) }
    }

    /// Serves version 2 of every feed.
    func publishSecondVersion() async {
        for index in 0..<count { await farm.state.set(path(index), text(index, version: 2)) }
    }
}
