/// Dispatches requests to handlers by method and path pattern.
///
/// ```swift
/// var router = Router()
/// router.get("/feeds/") { _ in .text("all feeds") }
/// router.get("/feeds/:id") { request in .text(request.pathParameters["id"] ?? "") }
/// router.get("/static/*") { request in .text(request.pathParameters["*"] ?? "") }
/// let server = try HTTPDaemon(configuration: .init(port: 8080), responder: router)
/// ```
///
/// Matching rules:
/// - Patterns are matched segment by segment against the decoded path segments (see `RoutePattern`):
///   `:name` captures one non-empty segment, a trailing `*` captures the rest under the key `"*"`, and
///   nothing is normalised (`/feeds` ≠ `/feeds/`; `//feeds/` is a 404).
/// - Routes are tried in the order they were added; the first whose method and pattern match wins.
/// - A path that matches some pattern, but not with this method, gets 405 with an `Allow` header.
///   Anything else gets 404.
/// - `HEAD` runs the matching `GET` handler unless a `HEAD` route matches first. The response keeps
///   its status and headers, loses its body, and carries the body's length as `Content-Length`
///   (a streamed body is dropped without being produced).
public struct Router: HTTPResponder {
    /// A route handler.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse

    private struct Route: Sendable {
        let method: HTTPMethod
        let pattern: RoutePattern
        let handler: Handler
    }

    private var routes: [Route] = []

    /// Builds the 404 response. The default is a plain-text "Not Found".
    public var notFound: Handler = { _ in .text("Not Found\n", status: .notFound) }

    /// Builds the 405 response from the request and the allowed methods. The router adds the `Allow`
    /// header itself. The default is a plain-text "Method Not Allowed".
    public var methodNotAllowed: @Sendable (HTTPRequest, [HTTPMethod]) async -> HTTPResponse = { _, _ in
        .text("Method Not Allowed\n", status: .methodNotAllowed)
    }

    /// Creates an empty router, which answers everything with 404.
    public init() {}

    /// Adds a route.
    ///
    /// - Parameters:
    ///   - method: The method to match.
    ///   - pattern: The path pattern, starting with `/`; see ``Router`` for the syntax.
    ///   - handler: Produces the response; `request.pathParameters` holds the captures.
    public mutating func add(_ method: HTTPMethod, _ pattern: String, handler: @escaping Handler) {
        routes.append(Route(method: method, pattern: RoutePattern(pattern), handler: handler))
    }

    /// Adds a `GET` route (which also answers `HEAD`).
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Produces the response.
    public mutating func get(_ pattern: String, handler: @escaping Handler) {
        add(.get, pattern, handler: handler)
    }

    /// Adds a `POST` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Produces the response.
    public mutating func post(_ pattern: String, handler: @escaping Handler) {
        add(.post, pattern, handler: handler)
    }

    /// Adds a `PUT` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Produces the response.
    public mutating func put(_ pattern: String, handler: @escaping Handler) {
        add(.put, pattern, handler: handler)
    }

    /// Adds a `DELETE` route.
    ///
    /// - Parameters:
    ///   - pattern: The path pattern.
    ///   - handler: Produces the response.
    public mutating func delete(_ pattern: String, handler: @escaping Handler) {
        add(.delete, pattern, handler: handler)
    }

    /// Routes `request` to the first matching handler, or answers 404 or 405.
    ///
    /// - Parameter request: The request.
    /// - Returns: The handler's response, or the 404/405 response.
    public func respond(to request: HTTPRequest) async -> HTTPResponse {
        if let (route, parameters) = firstRoute(for: request.method, segments: request.pathSegments) {
            return await run(route, parameters: parameters, request: request)
        }
        if request.method == .head, let (route, parameters) = firstRoute(for: .get, segments: request.pathSegments) {
            return await run(route, parameters: parameters, request: request).forHead()
        }
        let allowed = allowedMethods(for: request.pathSegments)
        guard !allowed.isEmpty else { return await notFound(request) }
        var response = await methodNotAllowed(request, allowed)
        response.headers["Allow"] = allowed.map(\.rawValue).joined(separator: ", ")
        return response
    }

    // MARK: - Matching

    private func firstRoute(for method: HTTPMethod, segments: [String]) -> (Route, [String: String])? {
        for route in routes where route.method == method {
            if let parameters = route.pattern.match(segments) {
                return (route, parameters)
            }
        }
        return nil
    }

    /// The methods of every route whose pattern matches, in route order, with `HEAD` after `GET`.
    private func allowedMethods(for segments: [String]) -> [HTTPMethod] {
        var allowed: [HTTPMethod] = []
        for route in routes where !allowed.contains(route.method) && route.pattern.match(segments) != nil {
            allowed.append(route.method)
            if route.method == .get, !allowed.contains(.head) {
                allowed.append(.head)
            }
        }
        return allowed
    }

    private func run(_ route: Route, parameters: [String: String], request: HTTPRequest) async -> HTTPResponse {
        var routed = request
        routed.pathParameters = parameters
        return await route.handler(routed)
    }
}
