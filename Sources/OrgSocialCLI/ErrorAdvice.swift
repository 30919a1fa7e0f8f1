import Bridge
import Foundation

/// What the tool adds to a library's error message: the command, option or environment variable that
/// helps. The libraries say what went wrong and nothing of this tool; ``CLI/reportFailure(_:context:)``
/// and the bridge's run records give their message followed by this advice.
enum ErrorAdvice {
    /// The advice for `error`, or `nil` when its message says all there is.
    /// - Parameter error: the error a command failed with.
    /// - Returns: one or more sentences, or `nil`.
    static func advice(for error: any Error) -> String? {
        switch error {
        case let error as BridgeError: advice(for: error)
        case let error as BridgeFeedError: advice(for: error)
        default: nil
        }
    }

    /// The message printed after `Error: `: the error's description, then its advice.
    /// - Parameter error: the error.
    /// - Returns: the message.
    static func message(for error: any Error) -> String {
        message(error.localizedDescription, for: error)
    }

    /// `description`, then the advice for `error`.
    /// - Parameters:
    ///   - description: how the error is described.
    ///   - error: the error.
    /// - Returns: the message.
    static func message(_ description: String, for error: any Error) -> String {
        guard let advice = advice(for: error) else { return description }
        return "\(description) \(advice)"
    }

    private static func advice(for error: BridgeError) -> String? {
        switch error {
        case .storage: "Check the path and its permissions, or give another one with --state."
        case .busy: "Let it finish, or wait longer with --wait SECONDS."
        case .accountExists(let name):
            "Choose another name with --name, or remove it first with 'orgsocial bridge remove-account \(name)'."
        case .unknownAccount: "See 'orgsocial bridge accounts' for the names."
        case .authorizationTimedOut: "Try --out-of-band or --token."
        case .cannotLock, .invalidValue, .unreadableImage: nil
        }
    }

    private static func advice(for error: BridgeFeedError) -> String? {
        switch error {
        case .noFile: "Check the path, or create the feed with 'orgsocial init'."
        case .readOnly:
            "Set a token with 'orgsocial config set token TOKEN' (or ORGSOCIAL_TOKEN), or give --file."
        case .file, .keptChanging: nil
        }
    }
}
