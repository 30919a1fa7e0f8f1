public import Foundation

/// Errors from the HTTP core types.
public enum HTTPCoreError: Error, Sendable, Equatable, LocalizedError {
    /// The client of a streamed response disconnected, or the server is stopping; the producer should
    /// return.
    case streamClosed

    /// A sentence saying what failed and what to do next.
    public var errorDescription: String? {
        switch self {
        case .streamClosed:
            "The response stream is closed: the client disconnected or the server is stopping."
        }
    }
}
