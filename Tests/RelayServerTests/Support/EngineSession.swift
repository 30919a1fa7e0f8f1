import Foundation
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The official engine (`OfficialEngine.path`) as a child process speaking JSON-RPC lines on its standard
/// input and output, its `mirror` (and `relay` and `preview`, which reads never use) set to a relay's
/// `/api` on 127.0.0.1; killed after 60 seconds so a stuck engine fails the test instead of hanging it.
final class EngineSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let home: TemporaryFolder
    private var buffer: [UInt8] = []
    private var nextID = 1

    /// Starts the engine and initializes it with its mirror at `relay`'s `/api`: read-only, or with
    /// `account` (a feed URL and its text, written to a local `file`, so the engine reads no feed over
    /// the network).
    static func started(relay: RelayServerHarness, account: (feed: String, text: String)? = nil) async throws
        -> EngineSession
    {
        let session = try EngineSession(try OfficialEngine.requirePath())
        let mirror = "http://127.0.0.1:\(relay.port)/api"
        var params: [String: Any] = ["mirror": mirror, "relay": mirror, "preview": mirror, "client": "test"]
        if let account {
            params["feed"] = account.feed
            params["file"] = try session.home.write(account.text, to: "social.org")
        }
        let initialized = try await session.result("initialize", params)
        guard (initialized as? [String: Any])?["mirror"] as? String == mirror else {
            throw EngineSessionError.answer("\(initialized)")
        }
        return session
    }

    /// Starts `engine` with only `HOME` (a temporary folder), `TZ` and `PATH` in its environment: no proxy
    /// setting may send its requests anywhere but 127.0.0.1.
    init(_ engine: String) throws {
        home = try TemporaryFolder()
        process.executableURL = URL(fileURLWithPath: engine)
        process.environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) { kill(pid, SIGKILL) }
    }

    deinit {
        stop()
        home.remove()
    }

    /// The `result` of calling `method` with `params`.
    ///
    /// - Throws: ``EngineSessionError/answer(_:)`` with the error object when the engine answers an error.
    func result(_ method: String, _ params: [String: Any] = [:]) async throws -> Any {
        let id = nextID
        nextID += 1
        let request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method, "params": params]
        let line = try JSONSerialization.data(withJSONObject: request) + Data("\n".utf8)
        let text = try await offPool { try self.call(id, line) }
        let answer = try JSONSerialization.jsonObject(with: text) as? [String: Any]
        guard let result = answer?["result"] else {
            throw EngineSessionError.answer(String(decoding: text, as: UTF8.self))
        }
        return result
    }

    /// Sends `line` and waits for the answer to `id`.
    private func call(_ id: Int, _ line: Data) throws -> Data {
        input.fileHandleForWriting.write(line)
        while true {
            while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let text = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                if let object = try? JSONSerialization.jsonObject(with: Data(text)) as? [String: Any],
                    object["id"] as? Int == id
                {
                    return Data(text)
                }
            }
            let data = output.fileHandleForReading.availableData
            guard !data.isEmpty else { throw EngineSessionError.ended }
            buffer += data
        }
    }

    /// Ends the engine.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }
}

/// The engine failed a call.
enum EngineSessionError: Error {
    /// It closed its output before answering.
    case ended
    /// It answered with an error (or an unexpected result), given as text.
    case answer(String)
}
