import Bridge
import Foundation
import HTTPClient

/// Reads the images a post links to, for `bridge push` to upload: `http(s)://` links through the
/// command's transport, `file:` links and paths from the disk (relative ones next to the feed file).
struct BridgeImageLoader: Sendable {
    /// The feed file, or `nil` when the feed was fetched (then only http(s) images are read).
    var feedPath: String?
    /// The transport for http(s) images.
    let transport: any HTTPTransport

    /// The largest image read: 16 MiB (Mastodon takes 16 MB images).
    static let maximumBytes = 16 << 20

    /// Makes a loader.
    /// - Parameters:
    ///   - feedPath: the feed file.
    ///   - context: the command's context (its transport).
    init(feedPath: String?, context: CommandContext) {
        self.feedPath = feedPath
        transport = context.makeTransport()
    }

    /// Reads one image.
    /// - Parameter image: the link.
    /// - Returns: its bytes, name and type.
    /// - Throws: ``CLIError/cannotRead(path:reason:)``.
    func load(_ image: OrgImageTarget) async throws -> ImageFile {
        let target = image.target
        let name =
            (target.prefix { $0 != "?" && $0 != "#" } as Substring).split(separator: "/").last.map(String.init)
            ?? "image"
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            guard let url = URL(string: target) else { throw CLIError.cannotRead(path: target, reason: "not a URL") }
            let response = try await transport.send(
                HTTPClientRequest(url: url, maximumBodyBytes: Self.maximumBytes))
            guard response.isSuccess else {
                throw CLIError.cannotRead(path: target, reason: "the server answered HTTP \(response.status)")
            }
            return ImageFile(bytes: response.body, filename: name, mimeType: ImageFile.mimeType(forFilename: name))
        }
        var path = target.hasPrefix("file:") ? String(target.dropFirst(5)) : target
        if !path.hasPrefix("/"), let feedPath {
            path = ((feedPath as NSString).deletingLastPathComponent as NSString).appendingPathComponent(path)
        }
        guard feedPath != nil || path.hasPrefix("/"), let data = FileManager.default.contents(atPath: path),
            data.count <= Self.maximumBytes
        else { throw CLIError.cannotRead(path: path, reason: "the image cannot be read") }
        return ImageFile(bytes: Array(data), filename: name, mimeType: ImageFile.mimeType(forFilename: name))
    }
}
