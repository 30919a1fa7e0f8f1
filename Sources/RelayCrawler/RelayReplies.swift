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

    /// Percent-encodes like Python's `urllib.parse.quote(s, safe="")`: everything but `A-Z a-z 0-9 _ . - ~`
    /// becomes `%XX` (upper-case hex) of its UTF-8 bytes.
    static func quote(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"),
                UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
