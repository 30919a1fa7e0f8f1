import Bridge
import Foundation
import OrgSocial
import Testing

/// The bridge's feed updates follow the library's rule that an edit never adds format errors: a local
/// file is left as it was, and nothing is written.
struct BridgeFeedCheckTests {
    static let feed = """
        #+TITLE: Bridged
        #+NICK: ana

        * Posts

        """

    @Test func aLocalFeedUpdateThatWouldAddAnErrorIsRefusedAndTheFileKept() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-check-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("social.org").path
        try Data(Self.feed.utf8).write(to: URL(fileURLWithPath: path))
        let local = LocalBridgeFeed(path: path)

        await #expect(throws: FeedChangeAddsErrors.self) {
            try await local.update { try $0.setKeyword("NICK", to: "two words") }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.feed)

        try await local.update { try $0.setKeyword("DESCRIPTION", to: "Pulled.") }
        #expect(try local.current().profile.description == "Pulled.")
    }
}
