import EngineProtocol
import Foundation
import HTTPCore
import Synchronization
import TestSupport
import Testing

/// The protocol server on its own, with a method table of the test's: how requests are scheduled.
@Suite(.timeLimit(.minutes(1)))
struct RPCServerTests {
    /// `write` waits for the gate then records its `n`; `read` answers at once.
    final class Table: RPCHandler {
        let gate: Gate
        let written = Mutex<[Int]>([])

        init(gate: Gate) { self.gate = gate }

        func isWrite(_ method: String) -> Bool { method == "write" }

        func handle(_ request: RPCRequest) async throws -> JSONValue {
            switch request.method {
            case "write":
                let n = try request.namedParams().int("n") ?? 0
                if n == 1 { await gate.wait() }
                written.withLock { $0.append(n) }
                return .int(n)
            case "read": return .string("read")
            default: throw RPCError(.methodNotFound, "Unknown method: \(request.method)")
            }
        }
    }

    /// Serves `lines` (then the end of input) and returns the answers in the order they were written; the
    /// gate opens once `answers` answers are out, or after 200 ms for 0.
    func serve(_ lines: [String], table: Table, openGateAfter answers: Int = 0) async -> [String] {
        let output = Mutex<[String]>([])
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        for line in lines { continuation.yield(Array(line.utf8)) }
        continuation.finish()
        let server = RPCServer(handler: table)
        async let served: Void = server.serve(lines: stream) { bytes in
            let count = output.withLock { list -> Int in
                list.append(String(decoding: bytes, as: UTF8.self))
                return list.count
            }
            if count >= answers { table.gate.open() }
        }
        if answers == 0 {
            // Long enough for writes that did not wait their turn to finish first.
            Task {
                try? await Task.sleep(for: .milliseconds(200))
                table.gate.open()
            }
        }
        await served
        return output.withLock { $0 }
    }

    @Test func aReadIsAnsweredWhileAWriteWaits() async {
        let table = Table(gate: Gate())
        let answers = await serve(
            [
                #"{"jsonrpc":"2.0","id":1,"method":"write","params":{"n":1}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"read"}"#,
            ], table: table, openGateAfter: 1)
        #expect(answers.count == 2)
        #expect(answers.first?.contains(#""id":2"#) == true)
    }

    @Test func writesRunOneAtATimeInArrivalOrder() async {
        let table = Table(gate: Gate())
        let lines = (1...5).map { #"{"jsonrpc":"2.0","id":\#($0),"method":"write","params":{"n":\#($0)}}"# }
        let answers = await serve(lines, table: table)
        #expect(answers.count == 5)
        // The first write waited for the gate; the others, queued behind it, still came after it.
        #expect(table.written.withLock { $0 } == [1, 2, 3, 4, 5])
    }

    @Test func theEndOfInputWaitsForEveryRequestRead() async {
        let table = Table(gate: Gate())
        let answers = await serve(
            [
                #"{"jsonrpc":"2.0","id":1,"method":"write","params":{"n":1}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"write","params":{"n":2}}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"read"}"#,
            ], table: table, openGateAfter: 1)
        #expect(answers.count == 3)
        #expect(table.written.withLock { $0 } == [1, 2])
    }
}
