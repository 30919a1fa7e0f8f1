import HTTPCore

/// The relay's fixed responses and headers, as the reference's middleware and frameworks produce them
/// (`relay-api.md` §1.2, §1.6).
enum RelayResponses {
    /// `Content-Type` of Django REST framework JSON.
    static let jsonType = "application/json; charset=utf-8"
    /// `Content-Type` of Django's HTML pages (and the empty preflight answer).
    static let htmlType = "text/html; charset=utf-8"

    /// The headers added to every response: CORS (§1.6) and Django's security middleware.
    static let commonHeaders: [(String, String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type, Authorization, X-Requested-With"),
        ("Access-Control-Max-Age", "86400"),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]

    /// Adds ``commonHeaders`` to a response.
    static func addingCommonHeaders(to response: HTTPResponse) -> HTTPResponse {
        var result = response
        for (name, value) in commonHeaders {
            result.headers.add(name, value)
        }
        return result
    }

    /// The answer to `OPTIONS` on any path: 200, empty, `text/html; charset=utf-8`.
    static let preflight = HTTPResponse(status: .ok, headers: ["Content-Type": htmlType], bytes: [])

    /// Django's 404 page with `DEBUG=false`.
    static let notFoundPage = HTTPResponse(
        status: .notFound,
        headers: ["Content-Type": htmlType],
        bytes: Array(
            """

            <!doctype html>
            <html lang="en">
            <head>
              <title>Not Found</title>
            </head>
            <body>
              <h1>Not Found</h1><p>The requested resource was not found on this server.</p>
            </body>
            </html>

            """.utf8)
    )

    /// Django's `APPEND_SLASH` redirect.
    static func appendSlash(location: String) -> HTTPResponse {
        HTTPResponse(status: .movedPermanently, headers: ["Location": location, "Content-Type": htmlType], bytes: [])
    }

    /// A Django REST framework error outside the envelope: `{"detail": "…"}`.
    static func detail(_ message: String, status: HTTPStatus, indent: Int? = nil) -> HTTPResponse {
        json(.object([("detail", .string(message))]), status: status, indent: indent)
    }

    /// DRF's 405 with its `Allow` header.
    static func methodNotAllowed(_ method: HTTPMethod, allowed: [HTTPMethod], indent: Int?) -> HTTPResponse {
        var response = detail("Method \"\(method.rawValue)\" not allowed.", status: .methodNotAllowed, indent: indent)
        response.headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
        return response
    }

    /// DRF's 406.
    static let notAcceptable = detail("Could not satisfy the request Accept header.", status: HTTPStatus(code: 406))

    /// An envelope error `{"type":"Error","errors":[message],"data":null}`.
    static func envelopeError(_ message: String, status: HTTPStatus, indent: Int?) -> HTTPResponse {
        json(RelayJSONEnvelope.error(message, status: status).body, status: status, indent: indent)
    }

    /// A DRF JSON response: compact raw UTF-8, or indented when the client asked.
    static func json(_ body: JSONValue, status: HTTPStatus, indent: Int?) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: ["Content-Type": jsonType],
            bytes: body.encoded(style: .restFramework(indent: indent)))
    }
}

extension RelayResponses {
    /// Django's 500 page with `DEBUG=false`, for store failures.
    static let serverErrorPage = HTTPResponse(
        status: .internalServerError,
        headers: ["Content-Type": htmlType],
        bytes: Array(
            """

            <!doctype html>
            <html lang="en">
            <head>
              <title>Server Error (500)</title>
            </head>
            <body>
              <h1>Server Error (500)</h1><p></p>
            </body>
            </html>

            """.utf8)
    )
}
