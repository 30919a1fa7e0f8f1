/// An HTTP request method, such as `GET` or `POST` (RFC 9110, section 9).
///
/// Methods are case-sensitive tokens. Any token is kept as sent, so a method this module has no
/// constant for still reaches the responder (and the router answers it with 405 or 404).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent, for example `"GET"`.
    public let rawValue: String

    /// Wraps a method token.
    ///
    /// - Parameter rawValue: The token, for example `"PATCH"`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Wraps a method token.
    ///
    /// - Parameter rawValue: The token, for example `"PATCH"`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// The token, for logs and `Allow` headers.
    public var description: String { rawValue }

    /// `GET`: fetch a representation.
    public static let get = HTTPMethod("GET")
    /// `HEAD`: like `GET`, without the body.
    public static let head = HTTPMethod("HEAD")
    /// `POST`: submit data to be processed.
    public static let post = HTTPMethod("POST")
    /// `PUT`: replace a resource.
    public static let put = HTTPMethod("PUT")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod("DELETE")
    /// `PATCH`: change part of a resource (RFC 5789).
    public static let patch = HTTPMethod("PATCH")
    /// `OPTIONS`: describe the communication options.
    public static let options = HTTPMethod("OPTIONS")
}
