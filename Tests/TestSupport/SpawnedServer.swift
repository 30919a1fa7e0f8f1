package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A server binary started by a test (`orgsocial serve`, `orgsocial relay serve`): its process, and its
/// standard error read up to the first line, which names the address it listens on. The process is
/// killed when the value is released while it still runs.
///
/// Starting it and ``terminate()`` block the calling thread (they wait for the child); call them from
/// ``offPool(_:)`` when other tests may need the Swift concurrency pool meanwhile.
package final class SpawnedServer {
    /// The running binary.
    package let process: Process
    private let reader: FileHandle
    /// What the binary wrote to standard error so far.
    package private(set) var log = ""

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
        reader = stderr.fileHandleForReading
        try process.run()
        while !log.contains("\n") {
            let chunk = reader.availableData
            guard !chunk.isEmpty else { break }
            log += String(decoding: chunk, as: UTF8.self)
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }

    /// The first line the binary wrote to standard error (its start-up line).
    package var firstLine: String {
        String(log.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// The port of the first `http://127.0.0.1:<port>` in the start-up line, if it has one.
    package var port: Int? {
        guard let range = firstLine.range(of: "http://127.0.0.1:") else { return nil }
        return Int(firstLine[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends SIGTERM, waits for the binary to exit and reads the rest of its standard error.
    ///
    /// - Returns: Its exit status.
    @discardableResult
    package func terminate() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        readToEnd()
        return process.terminationStatus
    }

    /// Reads standard error up to its end (once the binary has exited) into ``log``.
    package func readToEnd() {
        log += String(decoding: reader.readDataToEndOfFile(), as: UTF8.self)
    }
}
