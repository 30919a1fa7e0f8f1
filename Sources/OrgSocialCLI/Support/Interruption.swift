import Foundation
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C for the commands that do not serve: SIGINT or SIGTERM stops the running command at once,
/// as a shell user expects.
///
/// On the first signal the command's output is shut (nothing it writes afterwards reaches standard
/// output or standard error, so no partial result is printed), its task is cancelled (network
/// transfers and crawl passes stop, `defer`s run), and the process exits with status 130 (128 + SIGINT,
/// what shells report for Ctrl-C) as soon as the task ends, or after ``gracePeriod`` at the latest.
/// Servers (`serve`, `relay serve`) take the signals over themselves to stop gracefully.
enum Interruption {
    /// The exit status of an interrupted command.
    static let exitStatus: Int32 = 130
    /// How long a cancelled command may take to clean up before the process exits anyway.
    static let gracePeriod: Duration = .milliseconds(500)

    /// Runs `body` (the command) so that a signal interrupts it as described above.
    /// - Parameters:
    ///   - output: the gate the command's output goes through; shut on the first signal.
    ///   - body: runs the command and returns its exit status.
    /// - Returns: the command's exit status, or ``exitStatus`` when a signal came first.
    static func run(shutting output: OutputGate, _ body: sending @escaping () async -> Int32) async -> Int32 {
        let command = Task { await body() }
        // A signal in the moment before this line has its default action: the process ends, as it should.
        let signals = TerminationSignals { _ in
            output.shut()
            command.cancel()
            armWatchdog()
        }
        defer { signals.restore() }
        let status = await command.value
        return output.isShut ? exitStatus : status
    }

    /// Whether the watchdog runs already.
    private static let armed = Mutex(false)

    /// Exits with ``exitStatus`` after ``gracePeriod``, on a thread of its own (so that a busy pool or a
    /// blocking call cannot hold the exit back).
    private static func armWatchdog() {
        let wasArmed = armed.withLock { isArmed in
            defer { isArmed = true }
            return isArmed
        }
        guard !wasArmed else { return }
        let parts = gracePeriod.components
        let seconds = Double(parts.seconds) + Double(parts.attoseconds) / 1e18
        let thread = Thread {
            Thread.sleep(forTimeInterval: seconds)
            _exit(exitStatus)
        }
        thread.name = "orgsocial-interrupt"
        thread.start()
    }
}

/// Standard output and standard error of a command that can be interrupted: open until ``shut()``,
/// after which writes are dropped.
final class OutputGate: Sendable {
    private let isOpen = Mutex(true)

    /// Makes an open gate.
    init() {}

    /// Drops every later write (a write in progress finishes first).
    func shut() { isOpen.withLock { $0 = false } }

    /// Whether the gate is shut.
    var isShut: Bool { isOpen.withLock { !$0 } }

    /// Runs `write` unless the gate is shut, holding the gate so that a write is never cut in half.
    func pass(_ write: () -> Void) {
        isOpen.withLock { open in
            if open { write() }
        }
    }
}
