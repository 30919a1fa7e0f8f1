import HTTPServer

/// The node's outermost responder: answers `OPTIONS` (CORS preflight) itself, hands everything else to
/// the router, adds the CORS headers to every response, and writes the access log.
struct NodeResponder: HTTPResponder {
    let router: Router
    let accessLog: (@Sendable (AccessLogEntry) -> Void)?

    /// The methods the node answers.
    static let allowedMethods = "GET, HEAD, PUT, POST, OPTIONS"
    /// The request headers a browser may send cross-origin.
    static let allowedHeaders =
        "Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since, If-Range, Range"
    /// The response headers a browser script may read.
    static let exposedHeaders =
        "ETag, Last-Modified, Content-Range, Accept-Ranges, Content-Encoding, Content-Length, Location, WWW-Authenticate"

    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        var response: HTTPResponse
        if request.method == .options {
            response = HTTPResponse(
                status: .noContent,
                headers: [
                    "Allow": Self.allowedMethods,
                    "Access-Control-Allow-Methods": Self.allowedMethods,
                    "Access-Control-Allow-Headers": Self.allowedHeaders,
                    "Access-Control-Max-Age": "86400",
                ]
            )
        } else {
            response = await router.respond(to: request)
        }
        response.headers.add("Access-Control-Allow-Origin", "*")
        response.headers.add("Access-Control-Expose-Headers", Self.exposedHeaders)
        if let accessLog {
            let path = request.target.prefix { $0 != "?" }
            accessLog(
                AccessLogEntry(
                    remoteAddress: request.remoteAddress,
                    method: request.method.rawValue,
                    path: String(path.map { $0.isASCII && !$0.isNewline ? $0 : "?" }),
                    status: response.status.code,
                    bytes: response.body.bytes?.count ?? 0,
                    duration: ContinuousClock.now - start
                ))
        }
        return response
    }
}
