/// A response body produced while it is being sent, such as a Server-Sent Events feed.
///
/// The server runs the producer in its own task once the response headers are queued, and sends what it
/// writes with chunked transfer coding as soon as the connection can take it (writes that pile up are
/// sent together). The stream ends when the producer returns (the client sees a complete chunked body)
/// or throws (the connection is closed without the last chunk, so the client can tell the body is cut
/// short; during a server stop the body ends cleanly instead).
///
/// When the client disconnects or the server stops, the producer's task is cancelled and every later
/// ``HTTPBodyWriter/write(_:)-([UInt8])`` throws ``HTTPCoreError/streamClosed``, so a producer that
/// loops on `write` stops by itself:
///
/// ```swift
/// HTTPBodyStream { writer in
///     for await event in notifications {
///         try await writer.write(ServerSentEvent(event: "notification", data: event.json))
///     }
/// }
/// ```
public struct HTTPBodyStream: Sendable {
    /// The producer the server runs.
    public let produce: @Sendable (HTTPBodyWriter) async throws -> Void

    /// Creates a stream from a producer.
    ///
    /// - Parameter produce: Writes the body through the writer it is given, then returns.
    public init(_ produce: @escaping @Sendable (HTTPBodyWriter) async throws -> Void) {
        self.produce = produce
    }

    /// Creates a stream that sends each element of `chunks` as it arrives.
    ///
    /// When the client disconnects, iteration is cancelled, so the stream's `onTermination` handler
    /// runs with `.cancelled`; use it to stop whatever feeds the continuation.
    ///
    /// - Parameter chunks: The body, chunk by chunk; it ends when the stream finishes.
    public init(_ chunks: AsyncStream<[UInt8]>) {
        self.init { writer in
            for await chunk in chunks {
                try await writer.write(chunk)
            }
        }
    }
}

/// The handle a ``HTTPBodyStream`` producer writes its body through.
public struct HTTPBodyWriter: Sendable {
    private let sink: @Sendable ([UInt8]) async throws(HTTPCoreError) -> Void

    /// Creates a writer that hands each chunk to `sink`.
    ///
    /// The server creates writers itself; create one in tests to run a producer without a socket.
    ///
    /// - Parameter sink: Receives each non-empty chunk; it throws to tell the producer to stop.
    public init(_ sink: @escaping @Sendable ([UInt8]) async throws(HTTPCoreError) -> Void) {
        self.sink = sink
    }

    /// Sends `bytes` as the next part of the body. It returns once the server has buffered them; a slow
    /// client makes it wait.
    ///
    /// - Parameter bytes: The next bytes; an empty array is ignored.
    /// - Throws: ``HTTPCoreError/streamClosed`` once the client has gone or the server is stopping.
    public func write(_ bytes: [UInt8]) async throws(HTTPCoreError) {
        guard !bytes.isEmpty else { return }
        try await sink(bytes)
    }

    /// Sends `text` encoded as UTF-8.
    ///
    /// - Parameter text: The next part of the body.
    /// - Throws: ``HTTPCoreError/streamClosed`` once the client has gone or the server is stopping.
    public func write(_ text: String) async throws(HTTPCoreError) {
        try await write(Array(text.utf8))
    }

    /// Sends one Server-Sent Event.
    ///
    /// - Parameter event: The event.
    /// - Throws: ``HTTPCoreError/streamClosed`` once the client has gone or the server is stopping.
    public func write(_ event: ServerSentEvent) async throws(HTTPCoreError) {
        try await write(event.encoded)
    }
}
