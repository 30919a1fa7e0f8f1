import Bridge
import Foundation

/// What the tool adds to a library's error message: the command, option or environment variable that
/// helps. The libraries say what went wrong and nothing of this tool; ``CLI/reportFailure(_:context:)``
/// prints their message followed by this advice.
enum ErrorAdvice {
    /// The advice for `error`, or `nil` when its message says all there is.
    /// - Parameter error: the error a command failed with.
    /// - Returns: one or more sentences, or `nil`.
    static func advice(for error: any Error) -> String? {
        switch error {
        case let error as BridgeError: advice(for: error)
        default: nil
        }
    }

    /// The message printed after `Error: `: the error's description, then its advice.
    /// - Parameter error: the error.
    /// - Returns: the message.
    static func message(for error: any Error) -> String {
        let description = error.localizedDescription
        guard let advice = advice(for: error) else { return description }
        return "\(description) \(advice)"
    }

    private static func advice(for error: BridgeError) -> String? {
        switch error {
        case .authorizationTimedOut: "Try --out-of-band or --token."
        default: nil
        }
    }
}
