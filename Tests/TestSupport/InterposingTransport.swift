import Foundation
package import HTTPClient
import HTTPCore
import Synchronization

/// Forwards requests to another transport and, just before the requests a ``Moment`` picks, runs a hook:
/// typically another writer publishing, so that the wrapped client's write meets a changed feed.
package final class InterposingTransport: HTTPTransport, Sendable {
    /// Which requests the hook runs before.
    package enum Moment: Sendable {
        /// The first write (a `PUT`, or a `POST` to `/upload`, the host API).
        case firstWrite
        /// Every write.
        case everyWrite
        /// The `n`-th request of any kind, counting from 1.
        case request(Int)
        /// Every second `GET` (the check just before each write, when a cycle reads then checks).
        case everySecondGet
    }

    private let base: any HTTPTransport
    private let moment: Moment
    private let hook: @Sendable () async throws -> Void
    private let counts = Mutex((requests: 0, writes: 0, gets: 0))

    /// Wraps `base`.
    /// - Parameters:
    ///   - base: the transport that sends the requests.
    ///   - moment: which requests the hook runs before.
    ///   - hook: what runs then; what it throws fails the request.
    package init(
        base: any HTTPTransport, before moment: Moment, run hook: @escaping @Sendable () async throws -> Void
    ) {
        self.base = base
        self.moment = moment
        self.hook = hook
    }

    package func send(_ request: HTTPClientRequest) async throws -> HTTPClientResponse {
        if runsHook(before: request) { try await hook() }
        return try await base.send(request)
    }

    private func runsHook(before request: HTTPClientRequest) -> Bool {
        let isWrite = request.method == .put || (request.method == .post && request.url.path == "/upload")
        let isGet = request.method == .get
        let seen = counts.withLock { counts in
            counts.requests += 1
            if isWrite { counts.writes += 1 }
            if isGet { counts.gets += 1 }
            return counts
        }
        switch moment {
        case .firstWrite: return isWrite && seen.writes == 1
        case .everyWrite: return isWrite
        case .request(let number): return seen.requests == number
        case .everySecondGet: return isGet && seen.gets % 2 == 0
        }
    }
}
