package import HTTPCore

/// An answer of one JSON endpoint: the status and the envelope, already in the relay's key order.
package struct RelayJSONReply: Sendable {
    /// The status code (200, 400, 404, …).
    package var status: HTTPStatus
    /// The whole envelope, `{"type", "errors", "data", "meta"?, "_links"?}`.
    package var body: JSONValue

    /// Makes a reply.
    package init(status: HTTPStatus = .ok, body: JSONValue) {
        self.status = status
        self.body = body
    }
}
