package import HTTPCore

/// A request's id: a string, an integer or `null`, echoed back as sent (engine-protocol.md §2).
package enum RPCID: Sendable, Hashable {
    /// A string id.
    case string(String)
    /// An integer id.
    case int(Int)
    /// `"id": null`, which is answered too.
    case null

    /// The id as written in the answer.
    package var json: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .int(let value): .int(value)
        case .null: .null
        }
    }
}

/// One request: its method, params and id (none for a notification, which is run but not answered).
package struct RPCRequest: Sendable {
    /// The id to answer with; `nil` for a notification.
    package let id: RPCID?
    /// The method's name.
    package let method: String
    /// The params as sent: `nil` when absent or `null`.
    package let params: RPCValue?

    /// The params as an object.
    /// - Returns: the members (none when absent).
    /// - Throws: ``RPCError`` `params must be an object` for an array or any other value.
    package func namedParams() throws(RPCError) -> RPCParams {
        switch params {
        case nil, .null?: return RPCParams()
        case .object(let members)?: return RPCParams(members)
        default: throw .invalidParams("params must be an object")
        }
    }
}

/// What one line of input holds: a request, or an error to answer at once.
package enum RPCMessage: Sendable {
    /// A request to run.
    case request(RPCRequest)
    /// A malformed message, answered with this id.
    case invalid(RPCError, id: RPCID)

    /// Reads one message from a JSON value.
    /// - Parameter value: the value of a line (or a batch's element).
    /// - Returns: the request, or the error that answers it.
    package static func read(_ value: RPCValue) -> RPCMessage {
        guard case .object(let members) = value else {
            return .invalid(RPCError(.invalidRequest, "Invalid request: expected a JSON-RPC request object"), id: .null)
        }
        var id: RPCID?
        switch members["id"] {
        case nil: id = nil
        case .null?: id = .null
        case .string(let string)?: id = .string(string)
        case .int(let int)?: id = .int(int)
        default:
            return .invalid(
                RPCError(.invalidRequest, "Invalid request: id must be a string, an integer or null"), id: .null)
        }
        guard members["jsonrpc"] == .string("2.0") else {
            return .invalid(RPCError(.invalidRequest, "Invalid request: jsonrpc must be \"2.0\""), id: id ?? .null)
        }
        guard case .string(let method)? = members["method"] else {
            return .invalid(RPCError(.invalidRequest, "Invalid request: missing method"), id: id ?? .null)
        }
        return .request(RPCRequest(id: id, method: method, params: members["params"]))
    }

    /// The error answer to a line that is not JSON.
    package static let parseError = RPCError(.parseError, "Parse error: the line is not valid JSON")
}

/// The JSON of answers.
package enum RPCResponse {
    /// `{"jsonrpc":"2.0","id":…,"result":…}`.
    /// - Parameters:
    ///   - id: the request's id.
    ///   - result: the result.
    /// - Returns: the answer.
    package static func result(id: RPCID, _ result: JSONValue) -> JSONValue {
        .object([("jsonrpc", "2.0"), ("id", id.json), ("result", result)])
    }

    /// `{"jsonrpc":"2.0","id":…,"error":{"code","message","data":{"kind"}}}`.
    /// - Parameters:
    ///   - id: the request's id.
    ///   - error: the error.
    /// - Returns: the answer.
    package static func error(id: RPCID, _ error: RPCError) -> JSONValue {
        .object([
            ("jsonrpc", "2.0"), ("id", id.json),
            (
                "error",
                .object([
                    ("code", .int(error.code)), ("message", .string(error.message)),
                    ("data", .object([("kind", .string(error.kind.rawValue))])),
                ])
            ),
        ])
    }
}
