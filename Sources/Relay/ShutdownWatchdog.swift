import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Ends the process when a graceful stop takes longer than its deadline.
///
/// Armed from the signal's Dispatch handler as the relay starts stopping (so that a cooperative pool a
/// stuck stop has exhausted cannot keep it from being armed), it runs on a thread of its own and calls
/// `_exit(1)` after logging one line. Arming it again does nothing.
/// A relay once hung for 15 minutes after "relay stopping" with sockets to a feed server in CLOSE-WAIT;
/// with the watchdog, `systemctl stop` and container runtimes get their process back in bounded time.
enum ShutdownWatchdog {
    /// The exit status of a stop the watchdog cut short.
    static let exitStatus: Int32 = 1
    /// Whether the watchdog runs already.
    private static let armed = Mutex(false)

    /// Starts the watchdog.
    /// - Parameters:
    ///   - deadline: how long the graceful stop may take.
    ///   - log: where the line goes before exiting.
    static func arm(deadline: Duration, log: @escaping @Sendable (String) -> Void) {
        let wasArmed = armed.withLock { isArmed in
            defer { isArmed = true }
            return isArmed
        }
        guard !wasArmed else { return }
        let seconds = deadline.seconds
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            log(
                "relay stop took longer than \(RelayService.describe(deadline)) (--shutdown-deadline); "
                    + "exiting now with status \(exitStatus)")
            _exit(exitStatus)
        }
        thread.name = "relay-shutdown-watchdog"
        thread.start()
    }
}

extension Duration {
    /// The duration in seconds.
    fileprivate var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
