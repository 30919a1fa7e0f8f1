import HTTPCore

/// Writes the reference relay's envelopes (`relay-api.md` §1.2): keys `type, errors, data, meta, _links`,
/// in that order. Every envelope the relay sends is made here.
enum RelayJSONEnvelope {
    /// A success envelope; `meta` and `links` are left out when `nil`.
    static func success(
        _ data: JSONValue, meta: [(String, JSONValue)]? = nil, links: [(String, JSONValue)]? = nil,
        status: HTTPStatus = .ok
    ) -> RelayJSONReply {
        var members: [(String, JSONValue)] = [("type", .string("Success")), ("errors", .array([])), ("data", data)]
        if let meta { members.append(("meta", .object(meta))) }
        if let links { members.append(("_links", .object(links))) }
        return RelayJSONReply(status: status, body: .object(members))
    }

    /// An error envelope `{"type":"Error","errors":[message],"data":null}` (or with another `data`, and a
    /// `meta` when given).
    static func error(
        _ message: String, status: HTTPStatus, data: JSONValue = .null, meta: [(String, JSONValue)]? = nil
    ) -> RelayJSONReply {
        var members: [(String, JSONValue)] = [
            ("type", .string("Error")), ("errors", .array([.string(message)])), ("data", data),
        ]
        if let meta { members.append(("meta", .object(meta))) }
        return RelayJSONReply(status: status, body: .object(members))
    }

    /// A link object `{"href", "method"}` (plus `"templated": true` when asked, and a `description`).
    static func link(_ href: String, method: String = "GET", templated: Bool = false, description: String? = nil)
        -> JSONValue
    {
        var members: [(String, JSONValue)] = [("href", .string(href)), ("method", .string(method))]
        if templated { members.append(("templated", .bool(true))) }
        if let description { members.append(("description", .string(description))) }
        return .object(members)
    }

    /// An array of strings.
    static func strings(_ values: [String]) -> JSONValue {
        .array(values.map { .string($0) })
    }
}
