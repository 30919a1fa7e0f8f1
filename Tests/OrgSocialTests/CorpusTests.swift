import Foundation
import OrgSocial
import Testing

/// The 15 real feeds of `../shared/corpus/feeds` (spec §14): round trip and the posts they hold.
struct CorpusTests {
    static let folder: URL? = {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/feeds")
        return FileManager.default.fileExists(atPath: folder.path) ? folder : nil
    }()

    static func load(_ name: String) throws -> [UInt8] {
        let folder = try #require(folder)
        return Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test(.enabled(if: folder != nil, "../shared/corpus/feeds is absent"))
    func everyRealFeedRoundTripsByteForByte() throws {
        let folder = try #require(Self.folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".org") }.sorted()
        #expect(names.count == 15)
        for name in names {
            let bytes = try Self.load(name)
            let feed = OrgSocialParser().parse(bytes: bytes)
            #expect(feed.serialized() == bytes, "\(name)")
            print(name, feed.posts.count, feed.posts.map { $0.id ?? "-" })
            for d in FeedValidator().validate(feed) { print("  ", d) }
        }
    }
}
