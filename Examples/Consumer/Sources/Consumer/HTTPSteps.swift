import Foundation
import HTTPClient
import HTTPCore
import HTTPServer

/// The HTTP pieces an embedder uses directly: a router (HTTPCore) served by the daemon (HTTPServer) and
/// fetched with the curl transport (HTTPClient).
enum HTTPSteps {
    /// Serves `GET /hello/:name` on 127.0.0.1 and fetches it, checking the body, a header and a 404.
    /// - Throws: ``ConsumerFailure``, `HTTPServerError` or `HTTPClientError`.
    static func serveAndFetch() async throws {
        var router = Router()
        router.get("/hello/:name") { request in
            var response = HTTPResponse.text("hello, \(request.pathParameters["name"] ?? "?")\n")
            response.headers.add("X-Consumer", "yes")
            return response
        }
        let server = try HTTPDaemon(
            configuration: HTTPDaemon.Configuration(host: "127.0.0.1", port: 0), responder: router)
        let transport = CurlTransport(timeout: .seconds(10))
        do {
            let base = "http://127.0.0.1:\(server.port)"
            let hello = try await transport.send(HTTPClientRequest(url: try url("\(base)/hello/embedder")))
            try check(hello.status == HTTPStatus.ok.code, "GET /hello answered \(hello.status)")
            try check(hello.text == "hello, embedder\n", "GET /hello answered \(hello.text.debugDescription)")
            try check(hello.headers["x-consumer"] == "yes", "the X-Consumer header is missing")
            let missing = try await transport.send(HTTPClientRequest(url: try url("\(base)/nowhere")))
            try check(missing.status == HTTPStatus.notFound.code, "GET /nowhere answered \(missing.status)")
        } catch {
            await server.stop(gracePeriod: .zero)
            throw error
        }
        await server.stop(gracePeriod: .zero)
        print("HTTPCore + HTTPServer + HTTPClient: a Router on 127.0.0.1:\(server.port) answered 200 and 404")
    }

    /// The URL in `text`.
    /// - Parameter text: an absolute URL.
    /// - Returns: the URL.
    /// - Throws: ``ConsumerFailure`` when `text` is not a URL.
    static func url(_ text: String) throws -> URL {
        guard let url = URL(string: text) else { throw ConsumerFailure("'\(text)' is not a URL") }
        return url
    }
}
