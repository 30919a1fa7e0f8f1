internal import CCurl
import Foundation
import Synchronization

/// One libcurl multi handle and the one thread that drives it: transfers are added, run, timed out and
/// cancelled there, and the thread sleeps in `curl_multi_poll` while it waits on the network.
///
/// Other threads talk to it only through `inbox` (under a `Mutex`) followed by `curl_multi_wakeup`, which
/// libcurl documents as callable from any thread. The multi handle keeps the connection cache, so
/// consecutive transfers to one server reuse a connection. The thread starts with the first transfer
/// and ends after ``stop()``, cleaning up the multi handle.
final class CurlMultiLoop: @unchecked Sendable {
    // @unchecked Sendable: `multi` is only used on the loop's thread, except `curl_multi_wakeup`, which
    // is thread-safe and is only called under `inbox`'s lock while `closed` is false (the loop sets
    // `closed` under that lock before it cleans the handle up). `active` is only touched on the loop's
    // thread (or in `init`/`deinit`, when no thread runs).

    /// What other threads have asked for since the loop last looked.
    private struct Inbox {
        var added: [CurlTransfer] = []
        var cancelled: [CurlTransfer] = []
        var stopping = false
        var started = false
        var closed = false
    }

    private let multi: UnsafeMutableRawPointer?
    private let setupFailure: CurlError?
    private let inbox = Mutex(Inbox())
    /// The transfers in the multi handle, by easy handle.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]

    /// The longest sleep in `curl_multi_poll` with nothing to do (a wakeup ends it early).
    private static let idlePollMilliseconds: Int32 = 60_000

    /// Makes the multi handle; the thread starts with the first transfer.
    init() {
        if let curlGlobalFailure {
            (multi, setupFailure) = (nil, curlGlobalFailure)
        } else if let multi = curl_multi_init() {
            (self.multi, setupFailure) = (multi, nil)
        } else {
            (multi, setupFailure) = (nil, .setupFailed(message: "curl_multi_init failed"))
        }
    }

    deinit {
        // A thread that ran has cleaned the handle up already (`closed`); one that never started has not.
        let cleanedUp = inbox.withLock { $0.closed }
        if let multi, !cleanedUp { curl_multi_cleanup(multi) }
    }

    /// Hands a transfer to the loop; it is finished (its caller resumed) on the loop's thread.
    /// - Parameter transfer: a transfer whose continuation is attached.
    func submit(_ transfer: CurlTransfer) {
        let refusal = inbox.withLock { inbox -> CurlError? in
            guard let multi else { return setupFailure ?? .setupFailed(message: "no multi handle") }
            guard !inbox.stopping, !inbox.closed else { return .setupFailed(message: "the transport was shut down") }
            inbox.added.append(transfer)
            if !inbox.started {
                inbox.started = true
                let thread = Thread { [self] in runOnLoopThread() }
                thread.name = "orgsocial-curl"
                thread.start()
            } else {
                curl_multi_wakeup(multi)
            }
            return nil
        }
        if let refusal { transfer.finish(.failure(refusal)) }
    }

    /// Asks the loop to remove a transfer at once; its caller gets `CancellationError`.
    /// - Parameter transfer: a submitted transfer.
    func cancel(_ transfer: CurlTransfer) {
        inbox.withLock { inbox in
            guard let multi, inbox.started, !inbox.closed else { return }
            inbox.cancelled.append(transfer)
            curl_multi_wakeup(multi)
        }
    }

    /// Ends the loop: transfers still running fail with `CancellationError`, then the thread cleans up.
    func stop() {
        inbox.withLock { inbox in
            inbox.stopping = true
            if let multi, inbox.started, !inbox.closed { curl_multi_wakeup(multi) }
        }
    }

    // MARK: - The loop's thread

    private func runOnLoopThread() {
        guard let multi else { return }
        while true {
            let (added, cancelled, stopping) = inbox.withLock { inbox in
                defer { (inbox.added, inbox.cancelled) = ([], []) }
                return (inbox.added, inbox.cancelled, inbox.stopping)
            }
            for transfer in added { add(transfer, to: multi) }
            for transfer in cancelled where active[transfer.easy] != nil {
                remove(transfer, from: multi)
                transfer.finish(.failure(CancellationError()))
            }
            if stopping { break }
            var running: Int32 = 0
            let performed = curl_multi_perform(multi, &running)
            if performed != CURLM_OK {
                failAll(in: multi, with: .setupFailed(message: String(cString: curl_multi_strerror(performed))))
            }
            collectFinished(in: multi)
            let sleep = expireTimedOut(in: multi)
            _ = curl_multi_poll(multi, nil, 0, sleep, nil)
        }
        let leftovers = inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.added = [] }
            return inbox.added
        }
        for transfer in leftovers { transfer.finish(.failure(CancellationError())) }
        failAll(in: multi, with: nil)
        curl_multi_cleanup(multi)
    }

    private func add(_ transfer: CurlTransfer, to multi: UnsafeMutableRawPointer) {
        do throws(CurlError) {
            try CurlError.check(multi: curl_multi_add_handle(multi, transfer.easy), context: "curl_multi_add_handle")
            transfer.noteStarted()
            active[transfer.easy] = transfer
        } catch {
            transfer.finish(.failure(error))
        }
    }

    private func remove(_ transfer: CurlTransfer, from multi: UnsafeMutableRawPointer) {
        curl_multi_remove_handle(multi, transfer.easy)
        active[transfer.easy] = nil
    }

    /// Fails every active transfer with `error` (`nil`: with `CancellationError`).
    private func failAll(in multi: UnsafeMutableRawPointer, with error: CurlError?) {
        for transfer in active.values {
            remove(transfer, from: multi)
            transfer.finish(.failure(error ?? CancellationError()))
        }
    }

    /// Finishes the transfers libcurl reports done.
    private func collectFinished(in multi: UnsafeMutableRawPointer) {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            // The message does not survive curl_multi_remove_handle: copy what is needed first.
            let (kind, easy, code) = (message.pointee.msg, message.pointee.easy_handle, message.pointee.data.result)
            guard kind == CURLMSG_DONE, let easy, let transfer = active[easy] else { continue }
            let outcome = transfer.outcome(code)
            remove(transfer, from: multi)
            transfer.finish(outcome)
        }
    }

    /// Stops the transfers that went quiet for longer than their inactivity timeout.
    /// - Returns: how long to sleep, in milliseconds, before the next one could time out.
    private func expireTimedOut(in multi: UnsafeMutableRawPointer) -> Int32 {
        let now = ContinuousClock.now
        var next = now + .milliseconds(Int(Self.idlePollMilliseconds))
        for transfer in active.values {
            let deadline = transfer.lastActivity + transfer.request.inactivityTimeout
            if deadline <= now {
                transfer.failure = .timedOut
                remove(transfer, from: multi)
                transfer.finish(.failure(CurlError.timedOut))
            } else {
                next = min(next, deadline)
            }
        }
        let wait = (next - now).components
        let milliseconds = Int(wait.seconds) * 1000 + Int(wait.attoseconds / 1_000_000_000_000_000) + 1
        return Int32(min(max(milliseconds, 1), Int(Self.idlePollMilliseconds)))
    }
}
