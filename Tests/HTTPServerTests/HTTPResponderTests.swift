import Foundation
import HTTPCore
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The immediate path of `HTTPResponder`: answered on the connection thread, or handed to `respond(to:)`.
@Suite struct HTTPResponderTests {
    /// Answers `/fast` immediately and everything else asynchronously, counting both.
    final class SplitResponder: HTTPResponder {
        let immediate = Mutex(0)
        let asynchronous = Mutex(0)

        func respondImmediately(to request: HTTPRequest) -> HTTPResponse? {
            guard request.path == "/fast" else { return nil }
            immediate.withLock { $0 += 1 }
            return .text("fast")
        }

        func respond(to request: HTTPRequest) async -> HTTPResponse {
            asynchronous.withLock { $0 += 1 }
            return .text("slow")
        }
    }

    @Test func usesTheImmediateAnswerWhenThereIsOne() async throws {
        let responder = SplitResponder()
        try await withServer(responder: responder) { server in
            try await withSession { session in
                let (fast, _) = try await session.fetch(url(server, "/fast"))
                let (slow, _) = try await session.fetch(url(server, "/slow"))
                #expect(String(decoding: fast, as: UTF8.self) == "fast")
                #expect(String(decoding: slow, as: UTF8.self) == "slow")
            }
        }
        #expect(responder.immediate.withLock { $0 } == 1)
        #expect(responder.asynchronous.withLock { $0 } == 1)
    }

    @Test func routersAndClosuresAnswerAsynchronouslyByDefault() {
        var router = Router()
        router.get("/x") { _ in .text("x") }
        #expect(router.respondImmediately(to: HTTPRequest(method: .get, target: "/x")) == nil)
    }
}
