/// An error answer: its JSON-RPC code, the kind the official apps read from `data.kind`, and a message
/// (engine-protocol.md §3).
package struct RPCError: Error, Sendable, Hashable {
    /// The kinds, each with its code.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// -32700: the line is not JSON.
        case parseError = "parse_error"
        /// -32600: not a request.
        case invalidRequest = "invalid_request"
        /// -32601: no such method.
        case methodNotFound = "method_not_found"
        /// -32602: a missing, mistyped or invalid parameter.
        case invalidParams = "invalid_params"
        /// -32001: a write or account method without an account.
        case notConfigured = "not_configured"
        /// -32002: an HTTP failure.
        case network
        /// -32003: the post, poll or account is not there.
        case notFound = "not_found"
        /// -32005: the local feed file cannot be used.
        case file
        /// -32006: saved in the local file, the upload failed.
        case uploadPending = "upload_pending"
        /// -32007: the feed kept changing elsewhere.
        case conflict
        /// -32603: the engine failed itself.
        case internalError = "internal_error"

        /// The JSON-RPC error code.
        package var code: Int {
            switch self {
            case .parseError: -32700
            case .invalidRequest: -32600
            case .methodNotFound: -32601
            case .invalidParams: -32602
            case .notConfigured: -32001
            case .network: -32002
            case .notFound: -32003
            case .file: -32005
            case .uploadPending: -32006
            case .conflict: -32007
            case .internalError: -32603
            }
        }
    }

    /// What kind of error.
    package let kind: Kind
    /// What the user reads.
    package let message: String

    /// An error of `kind`.
    /// - Parameters:
    ///   - kind: the kind.
    ///   - message: the message.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The code.
    package var code: Int { kind.code }

    /// `Invalid params: <detail>`.
    /// - Parameter detail: what is wrong.
    /// - Returns: the error.
    package static func invalidParams(_ detail: String) -> RPCError {
        RPCError(.invalidParams, "Invalid params: \(detail)")
    }

    /// The answer to a write or account method without a writable account.
    package static let notConfigured = RPCError(
        .notConfigured, "No account configured: set your feed and a local file or upload method first.")
}
