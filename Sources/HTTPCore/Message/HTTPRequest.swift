/// An HTTP request as the responder sees it: pure Swift, with the body already read in full.
///
/// The adapter builds it from libmicrohttpd's callbacks; tests can build one directly and hand it to a
/// responder without a socket.
///
/// ```swift
/// let request = HTTPRequest(method: .get, target: "/feeds/?feed=https%3A%2F%2Fa.example%2Fsocial.org")
/// request.path                // "/feeds/"
/// request.queryValue("feed")  // "https://a.example/social.org"
/// ```
public struct HTTPRequest: Sendable, Equatable {
    /// The request method.
    public let method: HTTPMethod
    /// The request target exactly as sent on the request line, for example `"/a%20b?x=1"`.
    public let target: String
    /// The target's path, percent-decoded (`"/a b"`). `%2F` decodes to `/`; use `pathSegments` to
    /// tell an encoded slash from a separator.
    public let path: String
    /// The path split on `/`, each segment percent-decoded, without the leading empty segment:
    /// `/feeds/` gives `["feeds", ""]` and `/` gives `[""]`.
    public let pathSegments: [String]
    /// The query's `name=value` pairs, percent-decoded (`+` as a space), in order.
    public let queryItems: [HTTPQueryItem]
    /// The header fields, in the order received.
    public var headers: HTTPHeaders
    /// The request body; empty if there was none.
    public var body: [UInt8]
    /// The client's IP address as text (`"127.0.0.1"`, `"::1"`), or `""` if unknown.
    public let remoteAddress: String
    /// The key per-address limits count this client by (its IPv4 address, or its IPv6 /64).
    public var clientAddressKey: ClientAddressKey { ClientAddressKey(remoteAddress) }
    /// Values captured by the route pattern (`:name` segments, `*` for a trailing wildcard).
    /// The router fills these in before it calls a route's handler.
    public var pathParameters: [String: String]

    /// Creates a request, parsing the path and query from `target`.
    ///
    /// - Parameters:
    ///   - method: The request method.
    ///   - target: The request target in origin form (`/path?query`) or absolute form
    ///     (`http://host/path?query`).
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    ///   - remoteAddress: The client's IP address as text.
    public init(
        method: HTTPMethod,
        target: String,
        headers: HTTPHeaders = [:],
        body: [UInt8] = [],
        remoteAddress: String = ""
    ) {
        let parts = RequestTarget(target)
        self.method = method
        self.target = target
        self.path = parts.path
        self.pathSegments = parts.pathSegments
        self.queryItems = parts.queryItems
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.pathParameters = [:]
    }

    /// The value of the first query item called `name`, or `nil` if there is none.
    ///
    /// - Parameter name: The decoded item name, compared exactly.
    /// - Returns: The decoded value.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// Every value of the query items called `name`, in order.
    ///
    /// - Parameter name: The decoded item name, compared exactly.
    /// - Returns: The decoded values; empty if there is none.
    public func queryValues(_ name: String) -> [String] {
        queryItems.filter { $0.name == name }.map(\.value)
    }
}
