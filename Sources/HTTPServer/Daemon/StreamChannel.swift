import HTTPCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Carries a streamed response body from its producer task to the libmicrohttpd thread sending it.
///
/// The producer writes chunks with `write(_:)`, which buffers up to `highWaterMark` bytes and then
/// suspends until the connection thread catches up. The connection thread pulls bytes in `read`,
/// blocking in `poll(2)` on a wake-up pipe and on the client socket (for `POLLRDHUP`), so it notices a
/// client that hangs up even while the producer is idle. On a hang-up, or when libmicrohttpd frees the
/// response, the channel closes: the producer's task is cancelled and its next write throws
/// ``HTTPCoreError/streamClosed``. When the server stops, the channel closes gracefully: chunks already
/// buffered are still sent and the body ends with the last chunk.
final class StreamChannel: Sendable {
    /// Why the channel closed.
    enum Closure: Sendable, Equatable {
        /// The client hung up or libmicrohttpd is done with the response: stop at once.
        case clientGone
        /// The server is stopping: send what is buffered, then end the body.
        case serverStopping
    }

    /// What `read` tells libmicrohttpd.
    enum ReadResult: Equatable {
        case bytes(Int)
        case endOfStream
        /// The client hung up: the connection is closed, routinely.
        case error
        /// The producer threw: the body is cut short, which is worth a log line.
        case producerFailed
    }

    private struct State: Sendable {
        var chunks: [[UInt8]] = []
        var offsetInFirstChunk = 0
        var bufferedBytes = 0
        var producerFinished = false
        var producerFailed = false
        var closure: Closure?
        var waitingWriter: CheckedContinuation<Void, Never>?
        var producer: Task<Void, Never>?
    }

    /// Bytes buffered before `write` waits for the client to catch up.
    static let highWaterMark = 64 * 1024
    /// How long `read` blocks in `poll(2)` before it looks at the state again, in milliseconds. Every
    /// state change also signals the pipe, so this only bounds the cost of a missed wake-up.
    private static let pollIntervalMilliseconds: Int32 = 1000

    private let state = Mutex(State())
    private let wakeup: WakeupPipe
    private let clientSocket: Int32

    /// Creates a channel for a response on the connection whose socket is `clientSocket` (-1 if unknown,
    /// in which case hang-ups are noticed only when a write to the client fails).
    init?(clientSocket: Int32) {
        guard let wakeup = WakeupPipe() else { return nil }
        self.wakeup = wakeup
        self.clientSocket = clientSocket
    }

    // MARK: - Producer side

    /// Runs `stream`'s producer in a new task that writes into this channel.
    func start(_ stream: HTTPBodyStream) {
        let task = Task {
            let writer = HTTPBodyWriter { bytes throws(HTTPCoreError) in try await self.write(bytes) }
            do {
                try await stream.produce(writer)
                self.finishProducing(failed: false)
            } catch {
                self.finishProducing(failed: true)
            }
        }
        let closedAlready = state.withLock { state in
            guard state.closure == nil else { return true }
            state.producer = task
            return false
        }
        if closedAlready {
            task.cancel()
        }
    }

    /// Ends the body without running a producer (a `HEAD` response).
    func finishWithoutProducing() {
        finishProducing(failed: false)
    }

    private func write(_ bytes: [UInt8]) async throws(HTTPCoreError) {
        while true {
            guard !Task.isCancelled else { throw .streamClosed }
            let accepted: Bool? = state.withLock { state in
                guard state.closure == nil else { return nil }
                guard state.bufferedBytes < Self.highWaterMark else { return false }
                state.chunks.append(bytes)
                state.bufferedBytes += bytes.count
                return true
            }
            switch accepted {
            case nil:
                throw .streamClosed
            case true?:
                wakeup.signal()
                return
            case false?:
                await waitForSpace()
            }
        }
    }

    private func waitForSpace() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state in
                    guard state.closure == nil, state.bufferedBytes >= Self.highWaterMark else { return true }
                    state.waitingWriter = continuation
                    return false
                }
                if resumeNow {
                    continuation.resume()
                }
            }
        } onCancel: {
            resumeWaitingWriter()
        }
    }

    private func resumeWaitingWriter() {
        let writer = state.withLock { state in
            defer { state.waitingWriter = nil }
            return state.waitingWriter
        }
        writer?.resume()
    }

    private func finishProducing(failed: Bool) {
        state.withLock { state in
            state.producerFinished = true
            state.producerFailed = failed
        }
        wakeup.signal()
    }

    // MARK: - Connection side

    /// Closes the channel: cancels the producer and wakes both sides. A later `.clientGone` overrides an
    /// earlier `.serverStopping`; closing again for the same reason does nothing.
    func close(_ reason: Closure) {
        let (writer, producer) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Task<Void, Never>?) in
            guard state.closure != .clientGone, state.closure != reason else { return (nil, nil) }
            state.closure = reason
            defer {
                state.waitingWriter = nil
                state.producer = nil
            }
            return (state.waitingWriter, state.producer)
        }
        writer?.resume()
        producer?.cancel()
        wakeup.signal()
    }

    /// Copies the next bytes of the body into `buffer`, blocking the calling libmicrohttpd thread until
    /// there are some, the body ends, or the client hangs up. Never returns `.bytes(0)`, which
    /// libmicrohttpd forbids in its internal-thread modes.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let (result, writer) = takeBytes(into: buffer)
            writer?.resume()
            if let result {
                return result
            }
            if !waitForBytesOrHangUp() {
                close(.clientGone)
                return .error
            }
        }
    }

    /// One look at the state: bytes to send, the end of the body, or `nil` to wait. Also returns the
    /// writer to resume if this read made room for it.
    private func takeBytes(
        into buffer: UnsafeMutableRawBufferPointer
    ) -> (ReadResult?, CheckedContinuation<Void, Never>?) {
        state.withLock { state in
            if state.closure == .clientGone {
                return (.error, nil)
            }
            if !state.chunks.isEmpty {
                let copied = Self.copy(from: &state, into: buffer)
                var writer: CheckedContinuation<Void, Never>?
                if state.bufferedBytes < Self.highWaterMark {
                    writer = state.waitingWriter
                    state.waitingWriter = nil
                }
                return (.bytes(copied), writer)
            }
            if state.closure == .serverStopping {
                // Even if the producer threw: it was told to stop, so the body ends cleanly.
                return (.endOfStream, nil)
            }
            if state.producerFinished {
                return (state.producerFailed ? .producerFailed : .endOfStream, nil)
            }
            return (nil, nil)
        }
    }

    private static func copy(from state: inout State, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var copied = 0
        var consumedChunks = 0
        for chunk in state.chunks {
            guard copied < buffer.count else { break }
            let start = consumedChunks == 0 ? state.offsetInFirstChunk : 0
            let count = min(chunk.count - start, buffer.count - copied)
            chunk.withUnsafeBytes { source in
                // Chunks are never empty (`HTTPBodyWriter` drops empty writes), so both bases exist.
                guard let from = source.baseAddress, let to = buffer.baseAddress else { return }
                to.advanced(by: copied).copyMemory(from: from.advanced(by: start), byteCount: count)
            }
            copied += count
            if start + count == chunk.count {
                consumedChunks += 1
                state.offsetInFirstChunk = 0
            } else {
                state.offsetInFirstChunk = start + count
                break
            }
        }
        state.chunks.removeFirst(consumedChunks)
        state.bufferedBytes -= copied
        return copied
    }

    /// Blocks until the wake-up pipe is signalled or the poll interval passes. Returns `false` if the
    /// client socket reports a hang-up.
    private func waitForBytesOrHangUp() -> Bool {
        var descriptors = [
            pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: clientSocket, events: ClientHangUp.readHangUp, revents: 0),
        ]
        let count = nfds_t(clientSocket >= 0 ? 2 : 1)
        let ready = poll(&descriptors, count, Self.pollIntervalMilliseconds)
        guard ready > 0 else { return true }
        if clientSocket >= 0, descriptors[1].revents & ClientHangUp.goneEvents != 0 {
            return false
        }
        if descriptors[0].revents & Int16(POLLIN) != 0 {
            wakeup.drain()
        }
        return true
    }
}
