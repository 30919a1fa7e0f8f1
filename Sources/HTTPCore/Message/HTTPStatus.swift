/// An HTTP response status code with its reason phrase (RFC 9110, section 15).
///
/// The reason phrase is informational: libmicrohttpd writes its own phrase for the code on the status
/// line. Use it in logs and in error bodies.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit status code, for example `404`.
    public let code: Int
    /// The standard reason phrase for `code`, for example `"Not Found"`, or `"Unknown"`.
    public let reasonPhrase: String

    /// Creates a status from a code, looking up its standard reason phrase.
    ///
    /// - Parameter code: The status code, 100 through 599.
    public init(code: Int) {
        self.code = code
        self.reasonPhrase = Self.reasonPhrases[code] ?? "Unknown"
    }

    /// `"404 Not Found"`.
    public var description: String { "\(code) \(reasonPhrase)" }

    /// 200 OK.
    public static let ok = HTTPStatus(code: 200)
    /// 201 Created.
    public static let created = HTTPStatus(code: 201)
    /// 202 Accepted.
    public static let accepted = HTTPStatus(code: 202)
    /// 204 No Content.
    public static let noContent = HTTPStatus(code: 204)
    /// 206 Partial Content.
    public static let partialContent = HTTPStatus(code: 206)
    /// 301 Moved Permanently.
    public static let movedPermanently = HTTPStatus(code: 301)
    /// 302 Found.
    public static let found = HTTPStatus(code: 302)
    /// 304 Not Modified.
    public static let notModified = HTTPStatus(code: 304)
    /// 400 Bad Request.
    public static let badRequest = HTTPStatus(code: 400)
    /// 401 Unauthorized.
    public static let unauthorized = HTTPStatus(code: 401)
    /// 403 Forbidden.
    public static let forbidden = HTTPStatus(code: 403)
    /// 404 Not Found.
    public static let notFound = HTTPStatus(code: 404)
    /// 405 Method Not Allowed; send an `Allow` header with it.
    public static let methodNotAllowed = HTTPStatus(code: 405)
    /// 409 Conflict.
    public static let conflict = HTTPStatus(code: 409)
    /// 412 Precondition Failed.
    public static let preconditionFailed = HTTPStatus(code: 412)
    /// 413 Content Too Large (called Payload Too Large before RFC 9110).
    public static let contentTooLarge = HTTPStatus(code: 413)
    /// 415 Unsupported Media Type.
    public static let unsupportedMediaType = HTTPStatus(code: 415)
    /// 416 Range Not Satisfiable.
    public static let rangeNotSatisfiable = HTTPStatus(code: 416)
    /// 422 Unprocessable Content.
    public static let unprocessableContent = HTTPStatus(code: 422)
    /// 428 Precondition Required (RFC 6585).
    public static let preconditionRequired = HTTPStatus(code: 428)
    /// 429 Too Many Requests.
    public static let tooManyRequests = HTTPStatus(code: 429)
    /// 431 Request Header Fields Too Large (RFC 6585).
    public static let requestHeaderFieldsTooLarge = HTTPStatus(code: 431)
    /// 500 Internal Server Error.
    public static let internalServerError = HTTPStatus(code: 500)
    /// 502 Bad Gateway.
    public static let badGateway = HTTPStatus(code: 502)
    /// 503 Service Unavailable.
    public static let serviceUnavailable = HTTPStatus(code: 503)
    /// 504 Gateway Timeout.
    public static let gatewayTimeout = HTTPStatus(code: 504)

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols",
        200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
        205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 407: "Proxy Authentication Required",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 411: "Length Required",
        412: "Precondition Failed", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        421: "Misdirected Request", 422: "Unprocessable Content", 426: "Upgrade Required",
        428: "Precondition Required", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}
