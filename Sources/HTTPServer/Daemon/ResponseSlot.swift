import Dispatch
import HTTPCore
import Synchronization

/// Hands one handler's response from its Swift task to the libmicrohttpd thread blocked on it.
///
/// The connection thread belongs to libmicrohttpd, not to the Swift concurrency pool, so blocking it on
/// a semaphore starves no task; the handler itself runs on the pool. The slot can also be abandoned when
/// the server stops, or when the client hangs up while it waits, which wakes the thread without a
/// response (the caller then cancels the handler's task).
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

    /// How often ``wait(watching:)`` looks at the client socket while the handler works, in milliseconds.
    static let hangUpCheckIntervalMilliseconds = 100

    /// Blocks the calling thread until the slot is fulfilled or abandoned, or the client on
    /// `clientSocket` hangs up (checked every ``hangUpCheckIntervalMilliseconds``), which abandons it.
    ///
    /// - Parameter clientSocket: the connection's socket, or -1 not to watch for a hang-up.
    /// - Returns: The response, or `nil` if the slot was abandoned or the client left.
    func wait(watching clientSocket: Int32) -> HTTPResponse? {
        while ready.wait(timeout: .now() + .milliseconds(Self.hangUpCheckIntervalMilliseconds)) == .timedOut {
            if ClientHangUp.hasHungUp(clientSocket) {
                abandon()
            }
        }
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
