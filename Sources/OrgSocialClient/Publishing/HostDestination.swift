public import Foundation
public import HTTPClient
import HTTPCore

/// A feed on an Org Social Host (`org-social-spec.md` §11): read from its public URL, written by
/// uploading the whole file with the account's vfile (`POST <scheme>://<host>[:port]/upload`,
/// `multipart/form-data` with the fields `vfile` and `file`).
///
/// The `ETag` of the read is sent as `If-Match`, and `If-None-Match: *` when creating: a host that checks
/// it (an `orgsocial serve` node, hosts that now answer an `ETag`) refuses a stale upload with 412 and the
/// publisher starts over; a host that ignores it takes the last upload. The new `ETag` is taken from the
/// answer's `ETag` header, or from the envelope's `data.etag`.
///
/// The vfile is a capability URL: whoever holds it can replace the feed, and it cannot be recovered. The
/// API's base keeps the vfile's port (org-social.el drops it, which breaks self-hosted instances).
public struct HostDestination: PublishDestination, Hashable {
    /// The account's vfile URL.
    public let vfile: URL
    /// Where the feed is read (the `public-url` of sign-up).
    public let feedURL: URL

    /// Names a feed on a host.
    /// - Parameters:
    ///   - vfile: the account's vfile URL.
    ///   - feedURL: the feed's public URL.
    public init(vfile: URL, feedURL: URL) {
        self.vfile = vfile
        self.feedURL = feedURL
    }

    /// The upload endpoint, without the vfile's secret.
    public var location: String {
        (try? FeedPublisher.endpoint("upload", on: vfile).absoluteString) ?? feedURL.absoluteString
    }

    /// `GET` of the public URL.
    public func read(using transport: any HTTPTransport) async throws -> RemoteFeed? {
        try await FeedPublisher.get(feedURL, credentials: .none, using: transport)
    }

    /// The multipart upload; 412 is ``DestinationWrite/changedElsewhere(current:)``.
    public func write(_ bytes: [UInt8], precondition: WritePrecondition, using transport: any HTTPTransport)
        async throws -> DestinationWrite
    {
        let endpoint = try FeedPublisher.endpoint("upload", on: vfile)
        var form = MultipartFormEncoder()
        form.addField(name: "vfile", value: vfile.absoluteString)
        form.addFile(name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8", bytes: bytes)
        var request = HTTPClientRequest(method: .post, url: endpoint, body: form.encoded())
        request.headers["Content-Type"] = form.contentType
        request.headers["Accept"] = "application/json"
        FeedPublisher.apply(precondition, to: &request)
        let response = try await transport.exchange(request)
        if response.status == 412 {
            return .changedElsewhere(current: response.headers["ETag"].map(FeedVersion.entityTag))
        }
        if response.status == 413 {
            throw OrgSocialClientError.tooLarge(
                url: endpoint.absoluteString, byteCount: bytes.count, message: FeedPublisher.message(in: response.body))
        }
        let envelope = try FeedPublisher.checkHostResponse(response, endpoint: endpoint)
        let etag = response.headers["ETag"] ?? envelope.string("etag")
        return .written(etag.map(FeedVersion.entityTag))
    }
}
