import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An engine binary spawned with pipes, driven with JSON lines: ``call(_:_:)`` sends a request and waits
/// for the answer with its id; ``send(line:)`` sends raw bytes.
final class EngineClient: Sendable {
    /// The binary test runs use: `orgsocial engine` beside the test bundle.
    static let orgsocial = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("orgsocial")
    /// Whether it is built.
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: orgsocial.path) }

    let process: Process
    private let input: FileHandle
    private let lines = Mutex<[String]>([])
    private let nextID = Mutex(0)
    private let outputEnded = Mutex(false)

    /// Starts `executable` with `arguments` (our `orgsocial engine` by default).
    init(executable: URL = EngineClient.orgsocial, arguments: [String] = ["engine"]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        // Only these variables: no proxy setting may send the engine's requests anywhere but 127.0.0.1.
        process.environment = ["HOME": NSTemporaryDirectory(), "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A stuck engine fails its test instead of hanging the run.
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { kill(pid, SIGKILL) }
        self.process = process
        input = stdin.fileHandleForWriting
        let output = stdout.fileHandleForReading
        let thread = Thread { [self] in
            var buffer: [UInt8] = []
            while true {
                let data = output.availableData
                if data.isEmpty { break }
                buffer += data
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[..<end], as: UTF8.self)
                    self.lines.withLock { $0.append(line) }
                    buffer.removeSubrange(...end)
                }
            }
            self.outputEnded.withLock { $0 = true }
        }
        thread.start()
    }

    /// Every line the engine wrote so far.
    var output: [String] { lines.withLock { $0 } }

    /// Writes `line` and a line break to the engine's input.
    func send(line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Sends a request and returns its answer (`result` or `error`), as parsed JSON.
    /// - Parameters:
    ///   - method: the method.
    ///   - params: the params.
    /// - Returns: the whole answer object.
    /// - Throws: ``NoAnswer`` when none comes, or what encoding the request throws.
    func call(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let id = nextID.withLock { value -> Int in
            value += 1
            return value
        }
        let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
        let data = try JSONSerialization.data(withJSONObject: request)
        send(line: String(decoding: data, as: UTF8.self))
        return try await answer(id: id)
    }

    /// Waits (at most 20 s) for the answer with `id`.
    func answer(id: Int) async throws -> [String: Any] {
        for _ in 0..<2000 {
            for line in output {
                if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                    object["id"] as? Int == id
                {
                    return object
                }
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw NoAnswer(id: id)
    }

    /// Sends a request whose answer must be a result.
    func result(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let answer = try await call(method, params)
        guard let result = answer["result"] as? [String: Any] else { throw Failed(answer: "\(answer)") }
        return result
    }

    /// Sends a request whose answer must be an error; returns `error`.
    func error(_ method: String, _ params: [String: Any] = [:]) async throws -> [String: Any] {
        let answer = try await call(method, params)
        guard let error = answer["error"] as? [String: Any] else { throw Failed(answer: "\(answer)") }
        return error
    }

    /// Closes the engine's input, waits for it to exit and for its output to be read.
    /// - Returns: its exit status.
    @discardableResult
    func close() -> Int32 {
        try? input.close()
        process.waitUntilExit()
        // The engine's last lines are read by the reader thread: wait (a little) for its end of file.
        for _ in 0..<500 where !outputEnded.withLock({ $0 }) { usleep(10_000) }
        return process.terminationStatus
    }

    struct NoAnswer: Error { let id: Int }
    struct Failed: Error { let answer: String }
}
