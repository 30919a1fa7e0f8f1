import Foundation
import TestSupport
import Testing

/// The framing and the request checks of `orgsocial engine` (engine-protocol.md §2, §3), over real pipes.
@Suite(.enabled(if: EngineClient.isBuilt), .serialized, .timeLimit(.minutes(1)))
struct EngineProtocolTests {
    @Test func aLineThatIsNotJSONIsAParseErrorWithANullID() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        engine.send(line: "{not json")
        _ = try await engine.call("setFilters")
        let first = try #require(
            JSONSerialization.jsonObject(with: Data(engine.output[0].utf8)) as? [String: Any])
        let error = try #require(first["error"] as? [String: Any])
        #expect(error["code"] as? Int == -32700)
        #expect((error["data"] as? [String: Any])?["kind"] as? String == "parse_error")
        #expect(first["id"] is NSNull)
    }

    @Test func theOrgsocialBinaryNamedOrgsocialEngineIsTheEngine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let link = folder.path("orgsocial-engine")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: EngineClient.orgsocial.path)
        let engine = try EngineClient(executable: URL(fileURLWithPath: link), arguments: [])
        defer { engine.close() }
        let error = try await engine.error("nope")
        #expect(error["code"] as? Int == -32601)
    }

    @Test func anUnknownMethodIsMethodNotFound() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        let error = try await engine.error("nope")
        #expect(error["code"] as? Int == -32601)
        #expect(error["message"] as? String == "Unknown method: nope")
        #expect((error["data"] as? [String: Any])?["kind"] as? String == "method_not_found")
    }

    @Test func aMissingOrMistypedParamIsInvalidParamsNamingIt() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        let missing = try await engine.error("timeline")
        #expect(missing["code"] as? Int == -32602)
        #expect(missing["message"] as? String == "Invalid params: missing \"scope\"")
        let mistyped = try await engine.error("timeline", ["scope": "all", "page": "2"])
        #expect(mistyped["message"] as? String == "Invalid params: wrong type for \"page\"")
    }

    @Test func aRequestWithoutJSONRPC2IsAnInvalidRequestAnsweredWithItsID() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        engine.send(line: #"{"jsonrpc":"1.0","id":"x","method":"follows"}"#)
        _ = try await engine.call("setFilters")
        let answer = try #require(
            engine.output.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
                .first { $0["id"] as? String == "x" })
        #expect((answer["error"] as? [String: Any])?["code"] as? Int == -32600)
    }

    @Test func aNotificationIsRunButNotAnswered() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        engine.send(line: #"{"jsonrpc":"2.0","method":"nope"}"#)
        _ = try await engine.call("setFilters")
        #expect(engine.output.count == 1)
    }

    @Test func writesWithoutAnAccountAreNotConfigured() async throws {
        let engine = try EngineClient()
        defer { engine.close() }
        let error = try await engine.error("publish", ["text": "hello"])
        #expect(error["code"] as? Int == -32001)
        #expect((error["data"] as? [String: Any])?["kind"] as? String == "not_configured")
    }

    @Test func writesSentTogetherLandOneAtATimeInOrderWithUniqueIDs() async throws {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient()
            defer { engine.close() }
            _ = try await engine.result("initialize", host.account)
            let texts = (1...5).map { "post number \($0)" }
            for (index, text) in texts.enumerated() {
                let request: [String: Any] = [
                    "jsonrpc": "2.0", "id": 100 + index, "method": "publish", "params": ["text": text],
                ]
                engine.send(line: String(decoding: try JSONSerialization.data(withJSONObject: request), as: UTF8.self))
            }
            for index in 0..<5 { _ = try await engine.answer(id: 100 + index) }
            let content = await host.state.content
            let positions = texts.compactMap { content.range(of: $0)?.lowerBound }
            #expect(positions.count == 5)
            #expect(positions == positions.sorted())
            let ids = content.split(separator: "\n").filter { $0.hasPrefix("** ") }
            #expect(Set(ids).count == 5)
        }
    }

    @Test func closingInputFinishesTheWriteInFlightThenExits() async throws {
        try await withServer(try PeerHost()) { host in
            let engine = try EngineClient()
            _ = try await engine.result("initialize", host.account)
            engine.send(line: #"{"jsonrpc":"2.0","id":7,"method":"publish","params":{"text":"written while closing"}}"#)
            #expect(engine.close() == 0)
            #expect(engine.output.contains { $0.contains("\"id\":7") && $0.contains("\"result\"") })
            #expect(await host.state.content.contains("written while closing"))
        }
    }
}
