import Foundation
public import HTTPClient

/// Reads the images a post links to, for a push to upload (``PushOptions/loadImage``): `http(s)://` links
/// through a transport, `file:` links and paths from the disk, relative ones next to the feed file.
///
/// ```swift
/// var options = PushOptions()
/// options.loadImage = BridgeImageLoader(feedPath: "/home/ana/social.org", transport: transport).load
/// ```
public struct BridgeImageLoader: Sendable {
    /// The largest image read by default: 16 MiB (Mastodon takes images of up to 16 MB).
    public static let defaultMaximumBytes = 16 << 20

    /// The feed file, or `nil` when the feed was fetched (then only http(s) images and absolute paths are
    /// read).
    public var feedPath: String?
    /// The transport for http(s) images.
    public let transport: any HTTPTransport
    /// The largest image read; a larger one is refused.
    public var maximumBytes: Int

    /// Makes a loader.
    /// - Parameters:
    ///   - feedPath: the feed file, against which relative paths are resolved; `nil` for a fetched feed.
    ///   - transport: the transport for http(s) images.
    ///   - maximumBytes: the largest image read.
    public init(feedPath: String?, transport: any HTTPTransport, maximumBytes: Int = defaultMaximumBytes) {
        self.feedPath = feedPath
        self.transport = transport
        self.maximumBytes = maximumBytes
    }

    /// Reads one image.
    /// - Parameter image: the link.
    /// - Returns: its bytes, its file name (the link's last path segment) and the type that name implies.
    /// - Throws: ``BridgeError/unreadableImage(target:reason:)`` when the image cannot be fetched or read, or
    ///   is larger than ``maximumBytes``.
    public func load(_ image: OrgImageTarget) async throws(BridgeError) -> ImageFile {
        let target = image.target
        let name =
            (target.prefix { $0 != "?" && $0 != "#" } as Substring).split(separator: "/").last.map(String.init)
            ?? "image"
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            return ImageFile(
                bytes: try await download(target), filename: name, mimeType: ImageFile.mimeType(forFilename: name))
        }
        var path = target.hasPrefix("file:") ? String(target.dropFirst(5)) : target
        if !path.hasPrefix("/") {
            guard let feedPath else {
                throw .unreadableImage(target: target, reason: "a relative path needs a local feed file")
            }
            path = ((feedPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableImage(target: path, reason: "the file cannot be read")
        }
        guard data.count <= maximumBytes else {
            throw .unreadableImage(target: path, reason: "it is larger than \(maximumBytes) bytes")
        }
        return ImageFile(bytes: Array(data), filename: name, mimeType: ImageFile.mimeType(forFilename: name))
    }

    /// The body of an http(s) image.
    private func download(_ target: String) async throws(BridgeError) -> [UInt8] {
        guard let url = URL(string: target) else { throw .unreadableImage(target: target, reason: "not a URL") }
        let response: HTTPClientResponse
        do {
            response = try await transport.send(HTTPClientRequest(url: url, maximumBodyBytes: maximumBytes))
        } catch {
            throw .unreadableImage(target: target, reason: error.localizedDescription)
        }
        guard response.isSuccess else {
            throw .unreadableImage(target: target, reason: "the server answered HTTP \(response.status)")
        }
        return response.body
    }
}
