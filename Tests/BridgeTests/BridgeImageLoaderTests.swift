import Bridge
import Foundation
import HTTPClient
import TestSupport
import Testing

/// `BridgeImageLoader`: images from the web through the transport, from the disk next to the feed file.
@Suite struct BridgeImageLoaderTests {
    let transport = CurlTransport(userAgent: "bridge-tests", timeout: .seconds(10))

    @Test func aRelativePathAndAFileLinkAreReadNextToTheFeedFile() async throws {
        try await withTemporaryFolder { folder in
            try folder.write("png bytes", to: "pictures/cat.png")
            let loader = BridgeImageLoader(feedPath: folder.path("social.org"), transport: transport)
            for target in ["pictures/cat.png", "file:pictures/cat.png", "file:\(folder.path("pictures/cat.png"))"] {
                let image = try await loader.load(OrgImageTarget(target: target, description: "A cat"))
                #expect(image == ImageFile(bytes: Array("png bytes".utf8), filename: "cat.png", mimeType: "image/png"))
            }
        }
    }

    @Test func aFetchedFeedReadsAbsolutePathsButNoRelativeOnes() async throws {
        try await withTemporaryFolder { folder in
            try folder.write("jpeg bytes", to: "cat.jpg")
            let loader = BridgeImageLoader(feedPath: nil, transport: transport)
            let image = try await loader.load(OrgImageTarget(target: folder.path("cat.jpg"), description: nil))
            #expect(image.mimeType == "image/jpeg")
            await #expect(
                throws: BridgeError.unreadableImage(
                    target: "cat.jpg", reason: "a relative path needs a local feed file")
            ) {
                try await loader.load(OrgImageTarget(target: "cat.jpg", description: nil))
            }
        }
    }

    @Test func aMissingOrTooLargeFileIsRefused() async throws {
        try await withTemporaryFolder { folder in
            try folder.write(String(repeating: "x", count: 11), to: "big.gif")
            let loader = BridgeImageLoader(
                feedPath: folder.path("social.org"), transport: transport, maximumBytes: 10)
            await #expect(
                throws: BridgeError.unreadableImage(
                    target: folder.path("big.gif"), reason: "it is larger than 10 bytes")
            ) {
                try await loader.load(OrgImageTarget(target: "big.gif", description: nil))
            }
            await #expect(
                throws: BridgeError.unreadableImage(target: folder.path("gone.png"), reason: "the file cannot be read")
            ) {
                try await loader.load(OrgImageTarget(target: "gone.png", description: nil))
            }
        }
    }

    @Test func aWebImageIsDownloadedAndNamedWithoutItsQuery() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/media/cat.webp", "webp bytes")
            let loader = BridgeImageLoader(feedPath: nil, transport: transport)
            let url = server.url("/media/cat.webp").absoluteString
            let image = try await loader.load(OrgImageTarget(target: url + "?size=large#top", description: nil))
            #expect(
                image == ImageFile(bytes: Array("webp bytes".utf8), filename: "cat.webp", mimeType: "image/webp"))
            let missing = server.url("/media/dog.png").absoluteString
            await #expect(
                throws: BridgeError.unreadableImage(target: missing, reason: "the server answered HTTP 404")
            ) {
                try await loader.load(OrgImageTarget(target: missing, description: nil))
            }
        }
    }

    @Test func aWebImageLargerThanTheLimitIsRefused() async throws {
        try await FakeFeedServer.with { server in
            await server.state.setFile("/big.png", String(repeating: "x", count: 100))
            let loader = BridgeImageLoader(feedPath: nil, transport: transport, maximumBytes: 10)
            let url = server.url("/big.png").absoluteString
            let error = await #expect(throws: BridgeError.self) {
                try await loader.load(OrgImageTarget(target: url, description: nil))
            }
            guard case .unreadableImage(let target, _) = error else {
                Issue.record("Expected unreadableImage, got \(String(describing: error))")
                return
            }
            #expect(target == url)
        }
    }
}
