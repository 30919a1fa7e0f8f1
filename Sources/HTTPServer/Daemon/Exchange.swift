import Synchronization

/// The state of one request while libmicrohttpd delivers it in several callback calls.
///
/// Created by the URI-log callback (the only place that sees the raw request target), kept in
/// libmicrohttpd's per-request `con_cls` slot with a retain, and released by the request-completed
/// callback. All calls for one request come from the same connection thread, so the mutex is never
/// contended; it is there to make the type `Sendable`.
final class Exchange: Sendable {
    /// Where the request is in its life.
    enum Phase: Sendable {
        /// The headers are complete but the access handler has not seen them yet.
        case awaitingHeaders
        /// The body is arriving.
        case receivingBody
        /// A response has been queued.
        case responded
    }

    /// What happened to a piece of the body.
    enum BodyOutcome: Sendable {
        /// Stored.
        case stored
        /// Discarded: the body is over the limit and will be answered with 413.
        case discarded
        /// Discarded, and the client has now sent more than the server is willing to read; disconnect.
        case overflow
    }

    private struct State: Sendable {
        var phase = Phase.awaitingHeaders
        var method = HTTPMethod.get
        var headers = HTTPHeaders()
        var remoteAddress = ""
        var body: [UInt8] = []
        var isOverLimit = false
        var discardedBytes = 0
        var isCountedInFlight = false
    }

    /// The request target as sent, for example `/feeds/?feed=x`.
    let target: String
    private let state = Mutex(State())

    init(target: String) {
        self.target = target
    }

    var phase: Phase {
        state.withLock(\.phase)
    }

    /// Whether the body went over the limit.
    var isOverLimit: Bool {
        state.withLock(\.isOverLimit)
    }

    /// Whether `markCountedInFlight()` was called.
    var isCountedInFlight: Bool {
        state.withLock(\.isCountedInFlight)
    }

    /// Records that the server counts this request as in flight until it completes.
    func markCountedInFlight() {
        state.withLock { $0.isCountedInFlight = true }
    }

    /// Stores the request line and headers and moves to `.receivingBody`.
    func begin(method: HTTPMethod, headers: HTTPHeaders, remoteAddress: String, expectedBody: Int) {
        state.withLock { state in
            state.method = method
            state.headers = headers
            state.remoteAddress = remoteAddress
            state.body.reserveCapacity(expectedBody)
            state.phase = .receivingBody
        }
    }

    /// Appends a piece of the body, or discards it once the body is over `limit` bytes. After the limit
    /// is passed, up to `limit` more bytes are discarded before the outcome becomes `.overflow`.
    func receive(_ bytes: UnsafeRawBufferPointer, limit: Int) -> BodyOutcome {
        state.withLock { state in
            if state.isOverLimit {
                state.discardedBytes += bytes.count
                return state.discardedBytes > limit ? .overflow : .discarded
            }
            guard state.body.count + bytes.count <= limit else {
                state.isOverLimit = true
                state.discardedBytes = state.body.count + bytes.count - limit
                state.body = []
                return .discarded
            }
            state.body.append(contentsOf: bytes)
            return .stored
        }
    }

    /// The complete request, taking the body out of the exchange.
    func makeRequest() -> HTTPRequest {
        state.withLock { state in
            let body = state.body
            state.body = []
            return HTTPRequest(
                method: state.method,
                target: target,
                headers: state.headers,
                body: body,
                remoteAddress: state.remoteAddress
            )
        }
    }

    /// The method, once `begin` has run.
    var method: HTTPMethod {
        state.withLock(\.method)
    }

    /// Records that a response has been queued.
    func markResponded() {
        state.withLock { $0.phase = .responded }
    }
}
