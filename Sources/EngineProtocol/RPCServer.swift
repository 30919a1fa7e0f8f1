package import Foundation
package import HTTPCore
import Synchronization

/// What answers the methods: the engine's method table.
package protocol RPCHandler: Sendable {
    /// Whether `method` changes the feed: such requests run one at a time, in the order they arrived.
    /// - Parameter method: the method's name.
    /// - Returns: `true` for a write.
    func isWrite(_ method: String) -> Bool

    /// Runs one request.
    /// - Parameter request: the request.
    /// - Returns: the result.
    /// - Throws: ``RPCError``; any other error is answered as an internal error.
    func handle(_ request: RPCRequest) async throws -> JSONValue
}

/// Serves JSON-RPC 2.0 over lines (engine-protocol.md §2): one JSON message per line in and out, requests
/// run concurrently and answered by id as they finish, writes run one at a time in arrival order, and when
/// the input ends every request already read is finished and answered before ``serve(lines:output:)``
/// returns.
package struct RPCServer<Handler: RPCHandler>: Sendable {
    /// The method table.
    package let handler: Handler
    private let writes = WriteQueue()

    /// A server for `handler`.
    /// - Parameter handler: the method table.
    package init(handler: Handler) {
        self.handler = handler
    }

    /// Reads lines until they end, answering each message through `output` (one JSON text, without the
    /// line break); returns once every request read has been answered.
    /// - Parameters:
    ///   - lines: the input's lines, without their line breaks.
    ///   - output: writes one answer.
    package func serve(lines: AsyncStream<[UInt8]>, output: @escaping @Sendable ([UInt8]) -> Void) async {
        await withTaskGroup(of: Void.self) { group in
            for await raw in lines {
                var line = raw[...]
                while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") {
                    line.removeLast()
                }
                guard line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) else { continue }
                guard let value = RPCValue.parse(line) else {
                    output(RPCResponse.error(id: .null, RPCMessage.parseError).encoded())
                    continue
                }
                if case .array(let elements) = value {
                    guard !elements.isEmpty else {
                        output(
                            RPCResponse.error(id: .null, RPCError(.invalidRequest, "Invalid request: empty batch"))
                                .encoded())
                        continue
                    }
                    let answers = elements.map { schedule(RPCMessage.read($0)) }
                    group.addTask {
                        var replies: [JSONValue] = []
                        for answer in answers { if let reply = await answer.value { replies.append(reply) } }
                        if !replies.isEmpty { output(JSONValue.array(replies).encoded()) }
                    }
                } else {
                    let answer = schedule(RPCMessage.read(value))
                    group.addTask {
                        if let reply = await answer.value { output(reply.encoded()) }
                    }
                }
            }
            await group.waitForAll()
        }
    }

    /// Starts a message's work now (a write behind the writes before it) and returns its answer.
    private func schedule(_ message: RPCMessage) -> Task<JSONValue?, Never> {
        switch message {
        case .invalid(let error, let id):
            return Task { RPCResponse.error(id: id, error) }
        case .request(let request):
            let run: @Sendable () async -> JSONValue? = { [handler] in
                let reply: JSONValue
                do {
                    let result = try await handler.handle(request)
                    reply = RPCResponse.result(id: request.id ?? .null, result)
                } catch let error as RPCError {
                    reply = RPCResponse.error(id: request.id ?? .null, error)
                } catch {
                    reply = RPCResponse.error(id: request.id ?? .null, RPCError(.internalError, "\(error)"))
                }
                return request.id == nil ? nil : reply
            }
            return handler.isWrite(request.method) ? writes.enqueue(run) : Task(operation: run)
        }
    }

    /// The lines of standard input, read on a thread of their own so that a blocking read holds no task;
    /// a last line without a line break counts too.
    /// - Returns: the lines, without their `\n`.
    package static func standardInputLines() -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            let thread = Thread {
                var buffer: [UInt8] = []
                while true {
                    let data = FileHandle.standardInput.availableData
                    if data.isEmpty { break }
                    buffer += data
                    while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(Array(buffer[..<end]))
                        buffer.removeSubrange(...end)
                    }
                }
                if !buffer.isEmpty { continuation.yield(buffer) }
                continuation.finish()
            }
            thread.start()
        }
    }

    /// Writes answers to standard output, one line each, never two at once.
    /// - Returns: the writer.
    package static func standardOutputWriter() -> @Sendable ([UInt8]) -> Void {
        let lock = Mutex(())
        return { bytes in
            lock.withLock { _ in FileHandle.standardOutput.write(Data(bytes + [UInt8(ascii: "\n")])) }
        }
    }
}

/// Runs writes one after the other, in the order they were enqueued.
final class WriteQueue: Sendable {
    private let last = Mutex<Task<Void, Never>?>(nil)

    /// Starts `work` once every write enqueued before it has finished.
    /// - Parameter work: the write.
    /// - Returns: its task.
    func enqueue<Value: Sendable>(_ work: @escaping @Sendable () async -> Value) -> Task<Value, Never> {
        last.withLock { previous in
            let before = previous
            let task = Task {
                await before?.value
                return await work()
            }
            previous = Task { _ = await task.value }
            return task
        }
    }
}
