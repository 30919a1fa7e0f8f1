/// An HTTP response as a responder returns it: status, headers and a body of bytes or a stream.
///
/// Don't set `Content-Length`, `Transfer-Encoding` or `Date`: the adapter derives the length from a byte
/// body, sends a stream with chunked transfer coding, and libmicrohttpd adds `Date` itself. The one
/// exception is a `HEAD` response with an empty byte body, whose `Content-Length` header announces the
/// length the `GET` body would have (see ``Router``).
public struct HTTPResponse: Sendable {
    /// A response body.
    public enum Body: Sendable {
        /// A body known in full; the adapter sends it with a `Content-Length`.
        case bytes([UInt8])
        /// A body produced while it is sent, such as Server-Sent Events.
        case stream(HTTPBodyStream)

        /// The bytes of a `.bytes` body, or `nil` for a stream.
        public var bytes: [UInt8]? {
            if case .bytes(let bytes) = self { bytes } else { nil }
        }
    }

    /// The status code.
    public var status: HTTPStatus
    /// The header fields to send, in order.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: The header fields.
    ///   - body: The body; empty by default.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Creates a response with a byte body.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields.
    ///   - bytes: The body bytes.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], bytes: [UInt8]) {
        self.init(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A `text/plain; charset=utf-8` response.
    ///
    /// - Parameters:
    ///   - text: The body text.
    ///   - status: The status code; 200 by default.
    /// - Returns: The response.
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], bytes: Array(text.utf8))
    }

    /// A `text/event-stream` response for Server-Sent Events, with `Cache-Control: no-cache`.
    ///
    /// See the [HTML Standard, section 9.2](https://html.spec.whatwg.org/multipage/server-sent-events.html).
    ///
    /// - Parameters:
    ///   - stream: Produces the events; write each with ``HTTPBodyWriter/write(_:)-(ServerSentEvent)``.
    ///   - headers: More header fields, sent after the two above.
    /// - Returns: The response.
    public static func eventStream(_ stream: HTTPBodyStream, headers: HTTPHeaders = [:]) -> HTTPResponse {
        var allHeaders: HTTPHeaders = ["Content-Type": "text/event-stream", "Cache-Control": "no-cache"]
        for field in headers {
            allHeaders.add(field.name, field.value)
        }
        return HTTPResponse(status: .ok, headers: allHeaders, body: .stream(stream))
    }
}

// MARK: - HEAD

extension HTTPResponse {
    /// This `GET` response as the answer to `HEAD`: the same status and headers, no body, and the body's
    /// length announced in `Content-Length` (a streamed body is dropped without being produced, and its
    /// length is not known).
    ///
    /// - Returns: The `HEAD` response.
    public func forHead() -> HTTPResponse {
        var head = self
        switch body {
        case .bytes(let bytes):
            head.headers["Content-Length"] = String(bytes.count)
        case .stream:
            head.headers.remove("Content-Length")
        }
        head.body = .bytes([])
        return head
    }
}
