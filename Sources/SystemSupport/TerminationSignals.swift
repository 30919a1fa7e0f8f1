import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM delivered as values instead of ending the process, while a server runs.
///
/// Make it once the server listens (so that a failed start leaves the process as it was); ``restore()``
/// gives the signals their default action back. Dispatch signal sources are the bridge from C signal
/// delivery to an `AsyncStream`.
///
/// ```swift
/// let signals = TerminationSignals()
/// defer { signals.restore() }
/// if let number = await signals.next() { log("stopping (signal \(number))") }
/// ```
package final class TerminationSignals {
    private let stream: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    private let numbers: [Int32]

    /// Takes over SIGINT and SIGTERM, or other signals (SIGHUP for a reload).
    ///
    /// - Parameters:
    ///   - numbers: The signals taken over; SIGINT and SIGTERM by default.
    ///   - onSignal: Called on a Dispatch thread as each signal arrives, before ``next()`` sees it: for
    ///     what must happen even when Swift's cooperative pool is busy (arming a deadline).
    package init(_ numbers: [Int32] = [SIGINT, SIGTERM], onSignal: (@Sendable (Int32) -> Void)? = nil) {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        self.stream = stream
        self.numbers = numbers
        sources = numbers.map { number in
            // The default action (ending the process) must be off for the dispatch source to see the signal.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                onSignal?(number)
                continuation.yield(number)
            }
            source.resume()
            return source
        }
    }

    /// Waits for the next signal (one that arrived meanwhile is returned at once).
    ///
    /// - Returns: The signal's number, or `nil` when the calling task is cancelled first.
    package func next() async -> Int32? {
        for await number in stream {
            return number
        }
        return nil
    }

    /// Gives the signals their default action back.
    package func restore() {
        for source in sources {
            source.cancel()
        }
        for number in numbers {
            signal(number, SIG_DFL)
        }
    }
}
