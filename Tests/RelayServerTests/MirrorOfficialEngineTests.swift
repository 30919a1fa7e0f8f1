import Foundation
import TestSupport
import Testing

extension RelayAPISuite {
    /// The official Org Social engine reading our relay's mirror API.
    @Suite
    struct MirrorOfficialEngineTests {
        /// The official engine binary: `ORGSOCIAL_OFFICIAL_ENGINE`, else what `scripts/official-engine`
        /// installs under `.build/official-engine/`; `nil` when neither exists.
        static func engine() -> URL? {
            let files = FileManager.default
            if let path = ProcessInfo.processInfo.environment["ORGSOCIAL_OFFICIAL_ENGINE"], !path.isEmpty,
                files.isExecutableFile(atPath: path)
            {
                return URL(fileURLWithPath: path)
            }
            let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let folder = package.appendingPathComponent(".build/official-engine")
            let versions = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
            return versions.sorted().reversed().map {
                folder.appendingPathComponent($0).appendingPathComponent("orgsocial-engine")
            }.first { files.isExecutableFile(atPath: $0.path) }
        }

        @Test func theEngineShowsTheRelaysPostsInTheAllTimeline() async throws {
            guard let engine = Self.engine() else {
                print("Skipped: no official engine (set ORGSOCIAL_OFFICIAL_ENGINE or run scripts/official-engine).")
                return
            }
            let relay = try await RelayServerHarness()
            defer { Task { await relay.stop() } }
            // The engine leaves group posts out of timelines (mirror-api.md §2.2).
            let listed = try await MirrorAPITests.page(relay, "/api/posts/?scope=all&perPage=100").data
            let ours = listed.filter { $0["group"] == nil }.compactMap { $0["uri"] as? String }
            #expect(ours.count > 1 && ours.count < listed.count)
            let session = try EngineSession(engine)
            defer { session.stop() }
            let mirror = "http://127.0.0.1:\(relay.port)/api"
            let account = try EngineSession.object(
                try await offPool { try session.call(1, "initialize", #"{"mirror":"\#(mirror)","client":"test"}"#) })
            #expect((account["result"] as? [String: Any])?["mirror"] as? String == mirror, "\(account)")
            let answer = try EngineSession.object(
                try await offPool {
                    try session.call(2, "timeline", #"{"scope":"all","sinceDays":3650,"perPage":100}"#)
                })
            let result = try #require(answer["result"] as? [String: Any], "\(answer)")
            let posts = try #require(result["posts"] as? [[String: Any]])
            #expect(posts.compactMap { $0["url"] as? String } == ours)
            #expect(result["hasMore"] as? Bool == false)
            let alice = try #require(posts.first { $0["timestamp"] as? String == "2025-02-01T10:00:00+0100" })
            #expect(alice["date"] as? String == "2025-02-01T09:00:00Z")
            #expect((alice["author"] as? [String: Any])?["nick"] as? String == "alice")
            #expect(alice["tags"] as? [String] == ["emacs"])
        }
    }
}

/// The official engine as a child process speaking JSON-RPC lines on its standard input and output;
/// killed after 60 seconds so a stuck engine fails the test instead of hanging it.
final class EngineSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer: [UInt8] = []

    /// Starts `engine`.
    init(_ engine: URL) throws {
        process.executableURL = engine
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let process = process
        DispatchQueue.global().asyncAfter(deadline: .now() + 60) {
            if process.isRunning { process.terminate() }
        }
    }

    /// A JSON line as an object.
    static func object(_ line: Data) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            throw EngineSessionError.ended
        }
        return object
    }

    /// Sends request `id` and waits for its answer line.
    func call(_ id: Int, _ method: String, _ params: String) throws -> Data {
        let line = #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"# + "\n"
        input.fileHandleForWriting.write(Data(line.utf8))
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

/// The engine closed its output before answering.
enum EngineSessionError: Error {
    case ended
}
