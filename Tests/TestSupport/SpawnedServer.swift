package import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A server binary started by a test (`orgsocial serve`, `orgsocial relay serve`, `orgsocial relay crawl`):
/// its process, and its standard error, read up to the first line (which names the address it listens on)
/// before the initializer returns, then by a thread of its own as the binary writes it, so ``log`` always
/// holds what was written so far. The process is killed when the value is released while it still runs.
///
/// Starting it and ``terminate()`` block the calling thread (they wait for the child); call them from
/// ``offPool(_:)`` when other tests may need the Swift concurrency pool meanwhile.
package final class SpawnedServer: Sendable {
    /// The running binary.
    package let process: Process
    /// Standard error so far, and whether its end was read.
    private let output: StandardErrorBuffer

    /// Starts `executable` and reads its standard error up to the end of the first line.
    ///
    /// - Parameters:
    ///   - executable: The binary.
    ///   - arguments: Its arguments.
    ///   - environment: Its whole environment.
    /// - Throws: What `Process.run()` throws when the binary cannot be started.
    package init(executable: URL, arguments: [String], environment: [String: String]? = nil) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let stderr = Pipe()
        process.standardError = stderr
        process.standardOutput = Pipe()
        let reader = stderr.fileHandleForReading
        try process.run()
        // A binary that never writes its first line is killed after a minute, which ends the read below
        // (the test then fails on the missing start-up line instead of waiting forever).
        let started = Mutex(false)
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            if !started.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
        defer { started.withLock { $0 = true } }
        var first = ""
        var isComplete = false
        while !first.contains("\n") {
            let chunk = reader.availableData
            guard !chunk.isEmpty else {
                isComplete = true
                break
            }
            first += String(decoding: chunk, as: UTF8.self)
        }
        let output = StandardErrorBuffer(text: first, isComplete: isComplete)
        self.output = output
        guard !isComplete else { return }
        // The rest is read as it comes, so a long-running binary never blocks on a full pipe and the test
        // can follow its log; the thread ends at end of file (when the binary exits).
        Thread.detachNewThread {
            while true {
                let chunk = reader.availableData
                if chunk.isEmpty { break }
                let text = String(decoding: chunk, as: UTF8.self)
                output.state.withLock { $0.text += text }
            }
            output.state.withLock { $0.isComplete = true }
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// What the binary wrote to standard error so far.
    package var log: String { output.state.withLock(\.text) }

    /// The first line the binary wrote to standard error (its start-up line).
    package var firstLine: String {
        String(log.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The port of the first `http://127.0.0.1:<port>` in the start-up line, if it has one.
    package var port: Int? {
        let line = firstLine
        guard let range = line.range(of: "http://127.0.0.1:") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// The complete lines of ``log`` that start with `prefix`, in order.
    ///
    /// - Parameter prefix: The start of the lines wanted.
    /// - Returns: The lines, without their line feed.
    package func logLines(startingWith prefix: String) -> [String] {
        let text = log
        let complete = text.hasSuffix("\n") ? Substring(text) : text[..<(text.lastIndex(of: "\n") ?? text.startIndex)]
        return complete.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map(String.init)
    }

    /// Sends SIGTERM, waits for the binary to exit and reads the rest of its standard error.
    ///
    /// A binary still running `gracePeriod` after SIGTERM is killed with SIGKILL, and a line saying so is
    /// added to ``log``: its exit status is then the signal's, which fails any test that expects a clean
    /// stop, instead of the test waiting forever.
    ///
    /// - Parameter gracePeriod: How long the binary may take to stop.
    /// - Returns: Its exit status.
    @discardableResult
    package func terminate(gracePeriod: Duration = .seconds(30)) -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        let deadline = ContinuousClock.now + gracePeriod
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            output.state.withLock { $0.text += "SpawnedServer: still running \(gracePeriod) after SIGTERM; killed\n" }
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        readToEnd()
        return process.terminationStatus
    }

    /// Sends SIGKILL (a crash: the binary gets no chance to clean up) and waits for it to be gone.
    package func killAbruptly() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Waits until standard error has been read to its end (once the binary has exited) into ``log``, for
    /// at most 10 seconds: a child process the binary left behind may hold the pipe open.
    package func readToEnd() {
        let deadline = ContinuousClock.now + .seconds(10)
        while !output.state.withLock(\.isComplete) && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}

/// What a ``SpawnedServer``'s binary wrote to standard error, shared with the thread that reads it.
private final class StandardErrorBuffer: Sendable {
    /// The text so far, and whether the end of the stream was read.
    let state: Mutex<(text: String, isComplete: Bool)>

    /// A buffer holding `text`.
    init(text: String, isComplete: Bool) {
        state = Mutex((text, isComplete))
    }
}
