import EngineProtocol
import Foundation
import OrgSocial
import OrgSocialClient

/// The engine's errors as the protocol's kinds and messages (engine-protocol.md §3).
enum EngineErrors {
    /// The message of a post that is not in the own feed.
    static let postNotFound = RPCError(.notFound, "Post not found in your feed.")

    /// The answer to `error`.
    /// - Parameter error: what a library call threw.
    /// - Returns: the protocol error.
    static func rpc(_ error: any Error) -> RPCError {
        switch error {
        case let error as RPCError:
            return error
        case let error as OrgSocialClientError:
            switch error {
            case .conflict:
                return RPCError(
                    .conflict,
                    "The feed changed elsewhere and the write could not be applied after retrying. Nothing was uploaded."
                )
            case .notFound: return RPCError(.network, "Remote file not found.")
            case .uploadFailed(let status, _, _): return RPCError(.network, "Upload failed with HTTP \(status).")
            case .fetchFailed(_, let status): return RPCError(.network, "The server returned HTTP \(status).")
            case .invalidOptions(let message): return .invalidParams(message)
            default: return RPCError(.network, error.localizedDescription)
            }
        case let error as LocalFeedFileError:
            return RPCError(.file, error.localizedDescription)
        case let error as OrgSocialError:
            if case .postNotFound = error { return postNotFound }
            return .invalidParams(error.localizedDescription)
        default:
            return RPCError(.network, "Network error: \(error.localizedDescription)")
        }
    }
}
