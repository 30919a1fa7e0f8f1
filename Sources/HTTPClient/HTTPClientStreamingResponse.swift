public import Foundation
public import HTTPCore

/// An HTTP response whose body is read as it arrives (``HTTPTransport/stream(_:)``): the status and header
/// at once, then the body's pieces, for endless bodies such as an event stream.
///
/// ```swift
/// let response = try await transport.stream(HTTPClientRequest(url: eventsURL))
/// for try await chunk in response.body { parser.feed(chunk) }
/// ```
public struct HTTPClientStreamingResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: HTTPHeaders
    /// The URL that answered (differs from the request's after a followed redirect).
    public var url: URL
    /// The body, decoded from any `Content-Encoding`, piece by piece.
    public var body: HTTPClientResponseBody

    /// Makes a response.
    /// - Parameters:
    ///   - status: the status code.
    ///   - headers: the header fields.
    ///   - url: the URL that answered.
    ///   - body: the body.
    public init(status: Int, headers: HTTPHeaders = [:], url: URL, body: HTTPClientResponseBody) {
        self.status = status
        self.headers = headers
        self.url = url
        self.body = body
    }

    /// Whether the status is 2xx.
    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// The body of an ``HTTPClientStreamingResponse``: the decoded bytes in pieces, in order, as the server
/// sends them.
///
/// Iterating waits without using the CPU until the next piece arrives. It throws
/// ``HTTPClientError/networkError(url:message:)`` when the transfer fails midway (the connection drops,
/// or nothing arrives within the request's timeout), and `CancellationError` when the iterating task is
/// cancelled. Ending the iteration early, or dropping the body, stops the transfer; the body keeps its
/// transport alive while it is read.
public struct HTTPClientResponseBody: AsyncSequence, Sendable {
    /// One piece of the body.
    public typealias Element = [UInt8]
    /// What iterating throws.
    public typealias Failure = any Error

    private let pieces: AsyncThrowingStream<[UInt8], any Error>
    private let translate: @Sendable (any Error) -> any Error

    /// Makes a body from a stream of pieces.
    /// - Parameter pieces: the pieces; what the stream throws is thrown as is.
    public init(_ pieces: AsyncThrowingStream<[UInt8], any Error>) {
        self.init(pieces, translatingErrors: { $0 })
    }

    /// Makes a body from a stream of pieces whose errors are translated as they are thrown.
    init(
        _ pieces: AsyncThrowingStream<[UInt8], any Error>,
        translatingErrors: @escaping @Sendable (any Error) -> any Error
    ) {
        self.pieces = pieces
        translate = translatingErrors
    }

    /// A body of one piece (none when `bytes` is empty), for a response read in full.
    /// - Parameter bytes: the whole body.
    /// - Returns: the body.
    public static func complete(_ bytes: [UInt8]) -> HTTPClientResponseBody {
        HTTPClientResponseBody(
            AsyncThrowingStream { continuation in
                if !bytes.isEmpty { continuation.yield(bytes) }
                continuation.finish()
            })
    }

    /// Makes an iterator.
    /// - Returns: the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: pieces.makeAsyncIterator(), translate: translate)
    }

    /// Iterates over the body's pieces.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<[UInt8], any Error>.AsyncIterator
        let translate: @Sendable (any Error) -> any Error

        /// The next piece, or `nil` at the end of the body.
        /// - Returns: the piece.
        /// - Throws: ``HTTPClientError`` when the transfer fails; `CancellationError` when cancelled.
        public mutating func next() async throws -> [UInt8]? {
            let piece: [UInt8]?
            do {
                piece = try await base.next()
            } catch {
                throw translate(error)
            }
            // A cancelled task's stream just ends; say why, so a cut body is not taken for a whole one.
            if piece == nil, Task.isCancelled { throw CancellationError() }
            return piece
        }
    }
}
