import HTTPCore
import TestSupport
import Testing

/// The router called directly, without a socket.
@Suite struct RouterTests {
    static func makeRouter() -> Router {
        var router = Router()
        router.get("/feeds/") { _ in .text("list") }
        router.get("/feeds/:id") { request in .text("feed \(request.pathParameters["id"] ?? "?")") }
        router.put("/feeds/:id") { _ in .text("put") }
        router.get("/feeds/:id/posts/:post") { request in
            .text("\(request.pathParameters["id"] ?? "?") \(request.pathParameters["post"] ?? "?")")
        }
        router.get("/static/*") { request in .text("static \(request.pathParameters["*"] ?? "?")") }
        router.post("/polls/:id/votes") { request in .text("vote \(request.body.count)") }
        router.get("/feeds/special") { _ in .text("never reached: /feeds/:id was added first") }
        return router
    }

    static func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body.bytes ?? [], as: UTF8.self)
    }

    static func respond(_ method: HTTPMethod, _ target: String, body: [UInt8] = []) async -> HTTPResponse {
        await makeRouter().respond(to: HTTPRequest(method: method, target: target, body: body))
    }

    @Test func matchesLiteralPaths() async {
        let response = await Self.respond(.get, "/feeds/")
        #expect(response.status == .ok)
        #expect(Self.text(response) == "list")
    }

    @Test func capturesDecodedPathParameters() async {
        #expect(Self.text(await Self.respond(.get, "/feeds/42")) == "feed 42")
        #expect(Self.text(await Self.respond(.get, "/feeds/a%2Fb")) == "feed a/b")
        #expect(
            Self.text(await Self.respond(.get, "/feeds/x/posts/2025-05-01T10%3A00%3A00%2B0100"))
                == "x 2025-05-01T10:00:00+0100")
    }

    @Test func capturesTheRestOfThePathWithATrailingWildcard() async {
        #expect(Self.text(await Self.respond(.get, "/static/css/site.css")) == "static css/site.css")
        #expect(Self.text(await Self.respond(.get, "/static/")) == "static ")
        #expect(await Self.respond(.get, "/static").status == .notFound)
    }

    @Test func triesRoutesInTheOrderTheyWereAdded() async {
        #expect(Self.text(await Self.respond(.get, "/feeds/special")) == "feed special")
    }

    @Test func answersUnknownPathsWith404() async {
        #expect(await Self.respond(.get, "/nope").status == .notFound)
        #expect(await Self.respond(.get, "/feeds/1/posts").status == .notFound)
    }

    @Test func neverNormalisesSlashes() async {
        #expect(await Self.respond(.get, "/feeds").status == .notFound)
        #expect(await Self.respond(.get, "//feeds/").status == .notFound)
        #expect(await Self.respond(.get, "/feeds//").status == .notFound)
    }

    @Test func answersAWrongMethodWith405AndAnAllowHeader() async {
        let response = await Self.respond(.delete, "/feeds/7")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers["Allow"] == "GET, HEAD, PUT")
        #expect(await Self.respond(.get, "/polls/1/votes").headers["allow"] == "POST")
    }

    @Test func answersHeadFromTheGetRouteWithAnEmptyBodyAndItsLength() async {
        let get = await Self.respond(.get, "/feeds/42")
        let head = await Self.respond(.head, "/feeds/42")
        #expect(head.status == .ok)
        #expect(head.body.bytes == [])
        #expect(head.headers["Content-Length"] == String(get.body.bytes?.count ?? -1))
        #expect(head.headers["Content-Type"] == get.headers["Content-Type"])
    }

    @Test func prefersAnExplicitHeadRoute() async {
        var router = Router()
        router.get("/x") { _ in .text("get") }
        router.add(.head, "/x") { _ in HTTPResponse(status: .noContent) }
        #expect(await router.respond(to: HTTPRequest(method: .head, target: "/x")).status == .noContent)
    }

    @Test func dropsAStreamedBodyForHeadWithoutRunningTheProducer() async {
        let produced = Counter()
        var router = Router()
        router.get("/events") { _ in
            .eventStream(HTTPBodyStream { _ in produced.increment() })
        }
        let head = await router.respond(to: HTTPRequest(method: .head, target: "/events"))
        #expect(head.body.bytes == [])
        #expect(head.headers["Content-Type"] == "text/event-stream")
        #expect(head.headers["Content-Length"] == nil)
        #expect(produced.value == 0)
    }

    @Test func passesTheBodyToTheHandler() async {
        #expect(Self.text(await Self.respond(.post, "/polls/3/votes", body: [1, 2, 3])) == "vote 3")
    }

    @Test func usesCustomNotFoundAndMethodNotAllowedResponses() async {
        var router = Self.makeRouter()
        router.notFound = { request in .text("no \(request.path)", status: .notFound) }
        router.methodNotAllowed = { _, allowed in .text("use \(allowed.count)", status: .methodNotAllowed) }
        #expect(Self.text(await router.respond(to: HTTPRequest(method: .get, target: "/x"))) == "no /x")
        let wrong = await router.respond(to: HTTPRequest(method: .delete, target: "/feeds/"))
        #expect(Self.text(wrong) == "use 2")
        #expect(wrong.headers["Allow"] == "GET, HEAD")
    }

    @Test func doesNotMatchAnEmptySegmentWithAParameter() async {
        #expect(await Self.respond(.get, "/feeds//posts/1").status == .notFound)
    }
}
