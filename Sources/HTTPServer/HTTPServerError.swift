public import Foundation

/// Errors from the HTTP server: listening on an address and starting the daemon.
public enum HTTPServerError: Error, Sendable, Equatable, LocalizedError {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// The port is outside 0...65535.
    case invalidPort(Int)
    /// Another process (or another server in this one) already listens on the address.
    case addressInUse(host: String, port: Int)
    /// The process may not bind the address, usually a port below 1024 without privileges.
    case permissionDenied(host: String, port: Int)
    /// The host is not an address of this machine.
    case addressNotAvailable(host: String, port: Int)
    /// A socket call failed for another reason.
    case socketFailure(host: String, port: Int, operation: String, message: String)
    /// libmicrohttpd refused to start the daemon.
    case daemonStartFailed(host: String, port: Int, reason: String)

    /// A sentence saying what failed and what to do next.
    public var errorDescription: String? {
        switch self {
        case .invalidHost(let host):
            "Cannot listen on '\(host)': not a numeric IP address. Use an address such as 127.0.0.1, "
                + "0.0.0.0 or ::1, or 'localhost'."
        case .invalidPort(let port):
            "Cannot listen on port \(port): ports run from 1 to 65535 (0 picks a free port)."
        case .addressInUse(let host, let port):
            "Cannot listen on \(Self.address(host, port)): the address is already in use. Stop the other "
                + "server or choose another port."
        case .permissionDenied(let host, let port):
            "Cannot listen on \(Self.address(host, port)): permission denied. Ports below 1024 need "
                + "privileges; choose a port of 1024 or above."
        case .addressNotAvailable(let host, let port):
            "Cannot listen on \(Self.address(host, port)): \(host) is not an address of this machine. "
                + "Use 127.0.0.1, 0.0.0.0 or one of this machine's addresses."
        case .socketFailure(let host, let port, let operation, let message):
            "Cannot listen on \(Self.address(host, port)): \(operation) failed: \(message)."
        case .daemonStartFailed(let host, let port, let reason):
            "Cannot start the HTTP server on \(Self.address(host, port)): \(reason)."
        }
    }

    private static func address(_ host: String, _ port: Int) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
