public import Foundation
public import HTTPClient
import HTTPCore

/// A feed on a WebDAV share (Apache `mod_dav`, nginx's dav module, Nextcloud, an `orgsocial serve` node):
/// read with `GET` and written with `PUT` at one URL, with HTTP Basic or a bearer token on every request.
///
/// A write names the version read: `If-Match: <ETag>`, or `If-None-Match: *` to create the file. Because
/// some servers ignore `If-Match` on `PUT` (nginx's dav module), a write first asks whether the file still
/// has that `ETag` (`GET` with `If-None-Match`, answered `304` when it does), so a change made since the
/// read is found there at the latest. A weak `ETag` (Apache sends one for a second after each change)
/// never matches `If-Match`, so then that check is the only condition. A server that sends no `ETag` at
/// all is written after the publisher compared the bytes once more (``FeedPublisher/write(_:to:over:)``).
public struct WebDAVDestination: PublishDestination, Hashable {
    /// The feed's public URL (what others follow).
    public let feedURL: URL
    /// Where the file is read and written; often the public URL itself.
    public let fileURL: URL
    /// Sent on every request.
    public let credentials: HTTPCredentials
    /// Whether a conditional write first asks whether the file still has the `ETag` (for servers that
    /// ignore `If-Match` on `PUT`); `true` by default. The engine turns it off, as the official engine does
    /// not ask: its peers' test hosts answer every `GET` with 200 and honour `If-Match` on `PUT`.
    package var checksTagBeforeWriting = true

    /// Names a file on a WebDAV share.
    /// - Parameters:
    ///   - feedURL: the feed's public URL.
    ///   - fileURL: where the file is read and written; the public URL when `nil`.
    ///   - credentials: Basic, bearer, or none.
    public init(feedURL: URL, fileURL: URL? = nil, credentials: HTTPCredentials) {
        self.feedURL = feedURL
        self.fileURL = fileURL ?? feedURL
        self.credentials = credentials
    }

    /// The file's URL.
    public var location: String { fileURL.absoluteString }

    /// `GET` of the file, with the credentials.
    public func read(using transport: any HTTPTransport) async throws -> RemoteFeed? {
        try await FeedPublisher.get(fileURL, credentials: credentials, using: transport)
    }

    /// Checks that the file still has the `ETag` named, then `PUT`s it there.
    public func write(_ bytes: [UInt8], precondition: WritePrecondition, using transport: any HTTPTransport)
        async throws -> DestinationWrite
    {
        if checksTagBeforeWriting, case .matching(.entityTag(let etag)) = precondition {
            var request = HTTPClientRequest(
                url: fileURL, headers: ["If-None-Match": etag, "Cache-Control": "no-cache"])
            if let authorization = credentials.authorization { request.headers["Authorization"] = authorization }
            let response = try await transport.exchange(request)
            switch response.status {
            case 304:
                break
            case 200, 404, 410:
                return .changedElsewhere(current: response.headers["ETag"].map(FeedVersion.entityTag))
            default:
                throw FeedPublisher.writeFailure(response, url: fileURL, byteCount: bytes.count)
            }
        }
        // A weak tag (Apache's for a second after a change) never matches `If-Match`, which compares
        // strongly: the check above, which compares weakly, is the condition then.
        var condition = precondition
        if case .matching(.entityTag(let etag)) = precondition, etag.hasPrefix("W/") { condition = .none }
        return try await Self.put(
            bytes, to: fileURL, credentials: credentials, precondition: condition, using: transport)
    }

    /// One `PUT` of a whole feed, as a node and a WebDAV share take it: `text/plain; charset=utf-8`, the
    /// precondition as `If-Match` or `If-None-Match: *`, 412 read as a change made elsewhere.
    static func put(
        _ bytes: [UInt8], to url: URL, credentials: HTTPCredentials, precondition: WritePrecondition,
        using transport: any HTTPTransport
    ) async throws -> DestinationWrite {
        try FeedPublisher.checkHTTPURL(url)
        var request = HTTPClientRequest(method: .put, url: url, body: bytes)
        if let authorization = credentials.authorization { request.headers["Authorization"] = authorization }
        request.headers["Content-Type"] = "text/plain; charset=utf-8"
        FeedPublisher.apply(precondition, to: &request)
        let response = try await transport.exchange(request)
        switch response.status {
        case 200..<300:
            return .written(response.headers["ETag"].map(FeedVersion.entityTag))
        case 412:
            return .changedElsewhere(current: response.headers["ETag"].map(FeedVersion.entityTag))
        default:
            throw FeedPublisher.writeFailure(response, url: url, byteCount: bytes.count)
        }
    }
}
