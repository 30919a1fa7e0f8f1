import FeedHosting
import Foundation
import TestSupport
import Testing

/// A node whose state folder is outside its root creates nothing under the root, so a root it cannot write
/// (a read-only mount) can still be served.
@Suite struct NodeStateFolderTests {
    @Test func aStateFolderOutsideTheRootHoldsTheStateAndTheRootIsOnlyRead() async throws {
        let state = try TemporaryFolder()
        defer { state.remove() }
        let root = try TestRoot()
        _ = try root.write(sampleFeed(nick: "ana"), to: "ana/social.org")
        try await withNode(root: root) {
            $0.stateFolder = state.path("node")
        } _: { node, root in
            let feed = try await send(node, "/ana/social.org")

            #expect(feed.status == 200)
            #expect(try root.names(in: "").sorted() == ["ana"])
            #expect(node.tokenFilePath == state.path("node/tokens.json"))
            #expect(FileManager.default.fileExists(atPath: state.path("node/host-secret")))
        }
    }
}
