import Foundation
import HTTPClient
import HTTPCore
import HTTPServer
import TestSupport
import Testing

/// The curl transport against a real local server: headers, bodies, redirects and timeouts.
struct CurlTransportTests {
    /// Echoes what it received as headers; `/slow` waits 2 s; `/moved` redirects.
    private static func echoServer() throws -> HTTPDaemon {
        var router = Router()
        router.add(.put, "/echo") { request in
            HTTPResponse(
                status: .ok,
                headers: [
                    "X-Method": request.method.rawValue, "X-User-Agent": request.headers["User-Agent"] ?? "",
                    "X-If-Match": request.headers["If-Match"] ?? "", "ETag": "\"e\"",
                ], bytes: request.body)
        }
        router.get("/slow") { _ in
            try? await Task.sleep(for: .seconds(2))
            return .text("late")
        }
        router.get("/moved") { _ in HTTPResponse(status: .movedPermanently, headers: ["Location": "/target"]) }
        router.get("/target") { _ in .text("arrived") }
        return try HTTPDaemon(configuration: .init(host: "127.0.0.1", port: 0), responder: router)
    }

    @Test func sendsMethodHeadersAndBodyAndReadsTheResponse() async throws {
        let server = try Self.echoServer()
        let transport = CurlTransport()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/echo"))
        let body = Array("é social.org\n".utf8)
        let response = try await transport.send(
            HTTPClientRequest(method: .put, url: url, headers: ["If-Match": "\"abc\""], body: body))
        await server.stop()
        #expect(response.status == 200)
        #expect(response.body == body)
        #expect(response.headers["x-method"] == "PUT")
        #expect(response.headers["X-User-Agent"] == "orgsocial/\(OrgSocialClientVersion.current)")
        #expect(response.headers["X-If-Match"] == "\"abc\"")
        #expect(response.headers["etag"] == "\"e\"")
    }

    @Test func followsRedirectsUnlessToldNotTo() async throws {
        let server = try Self.echoServer()
        let transport = CurlTransport()
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/moved"))
        let followed = try await transport.send(HTTPClientRequest(url: url))
        let kept = try await transport.send(HTTPClientRequest(url: url, followsRedirects: false))
        await server.stop()
        #expect(followed.status == 200)
        #expect(followed.text == "arrived")
        #expect(followed.url.path == "/target")
        #expect(kept.status == 301)
        #expect(kept.headers["Location"] == "/target")
    }

    @Test func aSlowServerTimesOutAsANetworkError() async throws {
        let server = try Self.echoServer()
        let transport = CurlTransport(timeout: .milliseconds(300))
        let url = try #require(URL(string: "http://127.0.0.1:\(server.port)/slow"))
        let error = await #expect(throws: HTTPClientError.self) {
            try await transport.send(HTTPClientRequest(url: url))
        }
        await server.stop()
        #expect(error == .networkError(url: url.absoluteString, message: "the server did not answer in time"))
    }
}
