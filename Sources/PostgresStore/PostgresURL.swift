import Foundation

/// A validated `postgres://` or `postgresql://` connection URL.
///
/// The URL is checked before libpq sees it, so a typo gives one clear error instead of libpq's guess:
///
/// ```swift
/// let url = try PostgresURL("postgres://relay@127.0.0.1:5432/relay?sslmode=disable")
/// url.host      // "127.0.0.1"
/// url.port      // 5432
/// url.database  // "relay"
/// ```
///
/// Query parameters (`sslmode`, `connect_timeout`, `application_name`, …) are passed to libpq unchanged;
/// see <https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>.
package struct PostgresURL: Sendable, Hashable, CustomStringConvertible {
    /// The URL as given; libpq parses it again when connecting.
    package let string: String
    /// The host name or address; `nil` means libpq's default (the local Unix socket).
    package let host: String?
    /// The TCP port; `nil` means the default, 5432.
    package let port: Int?
    /// The database name; `nil` means the default (the user's name).
    package let database: String?
    /// The user name, when the URL has one.
    package let user: String?

    /// Parses and validates a connection URL.
    ///
    /// - Parameter string: `postgres://[user[:password]@][host][:port][/database][?key=value&…]`.
    /// - Throws: ``PostgresError/invalidURL(_:reason:)`` naming what is wrong.
    package init(_ string: String) throws(PostgresError) {
        let redacted = Self.redact(string)
        if string.contains(where: \.isWhitespace) {
            throw .invalidURL(redacted, reason: "it contains white space; percent-encode it (%20)")
        }
        if let port = Self.portText(string), port.isEmpty || !port.allSatisfy(\.isASCII) || Int(port) == nil {
            throw .invalidURL(redacted, reason: "the port is missing or not a number")
        }
        guard let components = URLComponents(string: string) else {
            throw .invalidURL(redacted, reason: "it is not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw .invalidURL(redacted, reason: "the scheme must be postgres:// or postgresql://")
        }
        guard string.dropFirst(scheme.count).hasPrefix("://") else {
            throw .invalidURL(redacted, reason: "the scheme must be followed by ://")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw .invalidURL(redacted, reason: "the port \(port) is not between 1 and 65535")
        }
        let path = components.percentEncodedPath
        var database: String?
        if !path.isEmpty && path != "/" {
            let name = String(path.dropFirst())
            guard path.hasPrefix("/"), !name.contains("/") else {
                throw .invalidURL(redacted, reason: "the path must be one database name, as in /relay")
            }
            guard let decoded = name.removingPercentEncoding, !decoded.isEmpty else {
                throw .invalidURL(redacted, reason: "the database name '\(name)' has a malformed %-escape")
            }
            database = decoded
        }
        self.string = string
        self.host = components.host.flatMap { $0.isEmpty ? nil : $0 }
        self.port = components.port
        self.database = database
        self.user = components.user.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Where the server is expected, for messages: `127.0.0.1:5432`, or `the local socket:5432`.
    package var endpoint: String {
        "\(host ?? "the local socket"):\(port ?? 5432)"
    }

    /// The URL without its password, safe to print.
    package var description: String { Self.redact(string) }

    /// Replaces the password of a URL-like string with `***`.
    static func redact(_ string: String) -> String {
        guard let schemeEnd = string.range(of: "://") else { return string }
        let rest = string[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return string
        }
        return string[..<colon] + ":***" + string[at...]
    }

    /// The text after the host's `:`, when the authority has one (nil when it has no port).
    private static func portText(_ string: String) -> Substring? {
        guard let schemeEnd = string.range(of: "://") else { return nil }
        let rest = string[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var hostPart = rest[..<authorityEnd]
        if let at = hostPart.lastIndex(of: "@") { hostPart = hostPart[hostPart.index(after: at)...] }
        if hostPart.hasPrefix("["), let close = hostPart.firstIndex(of: "]") {
            hostPart = hostPart[hostPart.index(after: close)...]
        }
        guard let colon = hostPart.firstIndex(of: ":") else { return nil }
        return hostPart[hostPart.index(after: colon)...]
    }
}
