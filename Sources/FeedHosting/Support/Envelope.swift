import HTTPCore

/// JSON responses in the Org Social Host envelope, `{"type": "Success"|"Error", "errors": [...], "data":
/// ...}` (spec §11), with the keys in that order. The node answers every JSON request this way, the PUT
/// extension included, so clients handle one shape.
enum Envelope {
    /// A `Success` envelope.
    ///
    /// - Parameters:
    ///   - data: The `data` member.
    ///   - status: The status code; 200 by default.
    ///   - links: An optional `_links` member, written after `data`.
    ///   - headers: More header fields.
    /// - Returns: The response, with `Content-Type: application/json`.
    static func success(
        _ data: JSONValue,
        status: HTTPStatus = .ok,
        links: JSONValue? = nil,
        headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        var members: [(String, JSONValue)] = [("type", "Success"), ("errors", .array([])), ("data", data)]
        if let links {
            members.append(("_links", links))
        }
        return response(.object(members), status: status, headers: headers)
    }

    /// An `Error` envelope with one message and, by default, an empty `data` object (as the reference host
    /// sends).
    ///
    /// - Parameters:
    ///   - message: The text of `errors[0]`; Host API messages are the reference host's exact strings.
    ///   - status: The status code.
    ///   - data: The `data` member.
    ///   - headers: More header fields.
    /// - Returns: The response, with `Content-Type: application/json`.
    static func error(
        _ message: String,
        status: HTTPStatus,
        data: JSONValue = .object([]),
        headers: HTTPHeaders = [:]
    ) -> HTTPResponse {
        response(
            .object([("type", "Error"), ("errors", .array([.string(message)])), ("data", data)]),
            status: status,
            headers: headers
        )
    }

    private static func response(_ value: JSONValue, status: HTTPStatus, headers: HTTPHeaders) -> HTTPResponse {
        var allHeaders: HTTPHeaders = ["Content-Type": "application/json"]
        for field in headers {
            allHeaders.add(field.name, field.value)
        }
        return HTTPResponse(status: status, headers: allHeaders, bytes: value.encoded())
    }
}
