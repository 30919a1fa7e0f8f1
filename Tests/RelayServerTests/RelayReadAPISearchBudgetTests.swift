import Foundation
import RelayCore
import RelayStore
import RelayTestFixtures
import Testing

/// `/search/`'s limits (the security issue's item 2): the length of `q`, and paging past the end of a search.
@Suite struct RelayReadAPISearchBudgetTests {
    typealias H = RelayReadAPIHarness

    @Test(arguments: RelayStoreEngine.tested) func aQueryLongerThanTheLimitIsA400(engine: RelayStoreEngine) async throws
    {
        let h = try await H.loaded(engine: engine)
        let long = try await h.get("/search/", [("q", String(repeating: "a", count: 10_000))])
        #expect(long.status == 400)
        #expect(
            long.text == #"{"type":"Error","errors":["Search query too long: at most 128 characters"],"data":null}"#)
        let limit = try await h.get("/search/", [("q", String(repeating: "é", count: 128))])
        #expect(limit.status == 200)
    }

    @Test(arguments: RelayStoreEngine.tested) func anEmptyPageBeyondTheEndHasNoPreviousLink(engine: RelayStoreEngine)
        async throws
    {
        let h = try await H.loaded(engine: engine)
        let reply = try await h.get("/search/", [("q", "zzzz"), ("page", "99")])
        #expect(
            reply.text
                == #"{"type":"Success","errors":[],"data":[],"meta":{"query":"zzzz","total":0,"page":99,"perPage":10,"hasNext":false,"hasPrevious":false},"_links":{"self":{"href":"/search/?q=zzzz&page=99","method":"GET"},"next":null,"previous":null}}"#
        )
    }
}
