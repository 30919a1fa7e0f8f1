public import Foundation
public import HTTPCore

/// An HTTP response as the client receives it, with the body read in full.
public struct HTTPClientResponse: Sendable, Hashable {
    /// The status code, e.g. 200 or 412.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The body, decoded from any `Content-Encoding`.
    public var body: [UInt8]
    /// The URL that answered (differs from the request's after a followed redirect).
    public var url: URL

    /// Makes a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields.
    ///   - body: the body.
    ///   - url: the URL that answered.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = [], url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The body as text (invalid UTF-8 reads as U+FFFD).
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
