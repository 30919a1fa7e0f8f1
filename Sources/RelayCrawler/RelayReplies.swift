import Foundation
import HTTPServer
import RelayCore

/// The envelopes the gateway answers with, in the reference's key order (`relay-api.md` §1.2).
enum RelayReplies {
    /// `{"type":"Success","errors":[],"data":…[,"_links":…]}` with `status`.
    static func success(_ data: JSONValue, links: JSONValue? = nil, status: HTTPStatus = .ok) -> RelayJSONReply {
        var members: [(String, JSONValue)] = [("type", "Success"), ("errors", .array([])), ("data", data)]
        if let links { members.append(("_links", links)) }
        return RelayJSONReply(status: status, body: .object(members))
    }

    /// `{"type":"Error","errors":[message],"data":null}` with `status`.
    static func error(_ message: String, status: HTTPStatus) -> RelayJSONReply {
        RelayJSONReply(
            status: status, body: .object([("type", "Error"), ("errors", .array([.string(message)])), ("data", .null)]))
    }
}
