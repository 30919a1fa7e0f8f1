import Dispatch
import HTTPCore
import Synchronization

/// Hands one handler's response from its Swift task to the libmicrohttpd thread blocked on it.
///
/// The connection thread belongs to libmicrohttpd, not to the Swift concurrency pool, so blocking it on
/// a semaphore starves no task; the handler itself runs on the pool. The slot can also be abandoned when
/// the server stops, which wakes the thread without a response.
final class ResponseSlot: Sendable {
    private enum Outcome: Sendable {
        case response(HTTPResponse)
        case abandoned
    }

    private let outcome = Mutex<Outcome?>(nil)
    private let ready = DispatchSemaphore(value: 0)

    /// Delivers the handler's response; ignored if the slot was abandoned.
    func fulfill(_ response: HTTPResponse) {
        settle(.response(response))
    }

    /// Wakes the waiting thread without a response.
    func abandon() {
        settle(.abandoned)
    }

    /// Blocks the calling thread until the slot is fulfilled or abandoned.
    ///
    /// - Returns: The response, or `nil` if the slot was abandoned.
    func wait() -> HTTPResponse? {
        ready.wait()
        return outcome.withLock { outcome in
            if case .response(let response) = outcome { response } else { nil }
        }
    }

    private func settle(_ value: Outcome) {
        let isFirst = outcome.withLock { outcome in
            guard outcome == nil else { return false }
            outcome = value
            return true
        }
        if isFirst {
            ready.signal()
        }
    }
}
