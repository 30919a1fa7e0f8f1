import Foundation
import TestSupport

/// Headless Chromium driven over the DevTools protocol on 127.0.0.1: load a URL, evaluate an
/// expression in the page, take a screenshot. (Chromium's `--screenshot` flag draws a blank image once
/// a page has scrolled to an anchor, so the test talks to the browser instead.)
///
/// Blocking; call it off the Swift pool (``offPool(_:)``). One instance is one browser process with one
/// tab; ``close()`` ends it.
final class HeadlessChromium: @unchecked Sendable {
    // @unchecked: used by one test on one thread at a time.

    /// A browser step that failed.
    struct Failure: Error, CustomStringConvertible {
        /// What happened.
        let description: String
    }

    /// The browser, if one is installed where Debian puts it.
    static let executable: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    private let process = Process()
    private let profile: URL
    private let socket: RawConnection
    private var received: [UInt8] = []
    private var nextID = 1

    /// Starts the browser with a window of `width` × `height` CSS pixels and connects to its tab.
    init(executable: String, width: Int = 412, height: Int = 800) throws {
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", "--user-data-dir=\(profile.path)",
            "--window-size=\(width),\(height)", "about:blank",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        do {
            let port = try Self.waitForPort(in: profile)
            let path = try Self.pagePath(port: port)
            socket = try RawConnection(port: port, timeout: .seconds(30))
            try socket.send(
                "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
            let head = try socket.readHead()
            guard head.status == 101 else { throw Failure(description: "DevTools answered \(head.status), not 101") }
        } catch {
            process.terminate()
            try? FileManager.default.removeItem(at: profile)
            throw error
        }
    }

    /// Ends the browser and removes its profile.
    func close() {
        socket.close()
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: profile)
    }

    /// Loads `url` and waits for its `load` event.
    func load(_ url: String) throws {
        _ = try call("Page.enable")
        _ = try call("Page.navigate", ["url": url])
        _ = try waitForEvent("Page.loadEventFired")
    }

    /// The value of a JavaScript expression in the page (DevTools evaluates it even where the page's
    /// Content-Security-Policy forbids scripts).
    func evaluate(_ expression: String) throws -> Any? {
        let result = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        return (result["result"] as? [String: Any])?["value"]
    }

    /// A PNG screenshot of the window.
    func screenshot() throws -> [UInt8] {
        let result = try call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = result["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw Failure(description: "no screenshot data")
        }
        return Array(data)
    }

    // MARK: - The protocol

    /// Sends one command and returns its `result`, skipping the events that arrive first.
    private func call(_ method: String, _ parameters: [String: Any] = [:]) throws -> [String: Any] {
        let id = nextID
        nextID += 1
        let message = try JSONSerialization.data(withJSONObject: ["id": id, "method": method, "params": parameters])
        try sendFrame(Array(message))
        while true {
            let reply = try readMessage()
            guard reply["id"] as? Int == id else { continue }
            if let error = reply["error"] { throw Failure(description: "\(method) failed: \(error)") }
            return reply["result"] as? [String: Any] ?? [:]
        }
    }

    /// Reads messages until the event `method` arrives.
    private func waitForEvent(_ method: String) throws -> [String: Any] {
        while true {
            let message = try readMessage()
            if message["method"] as? String == method { return message }
        }
    }

    /// Sends a masked text frame (RFC 6455, section 5.2: a client masks every frame).
    private func sendFrame(_ payload: [UInt8]) throws {
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try socket.send(frame)
    }

    /// Reads one whole message (joining continuation frames) as a JSON object.
    private func readMessage() throws -> [String: Any] {
        var payload: [UInt8] = []
        while true {
            let header = try take(2)
            var length = Int(header[1] & 0x7F)
            if length == 126 {
                length = try take(2).reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127 {
                length = try take(8).reduce(0) { $0 << 8 | Int($1) }
            }
            payload += try take(length)
            let opcode = header[0] & 0x0F
            if opcode == 8 { throw Failure(description: "DevTools closed the connection") }
            if header[0] & 0x80 != 0, opcode != 9, opcode != 10 { break }
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any] else {
            throw Failure(description: "a DevTools message that is not a JSON object")
        }
        return object
    }

    /// The next `count` bytes from the socket.
    private func take(_ count: Int) throws -> [UInt8] {
        while received.count < count {
            let chunk = try socket.receiveSome()
            guard !chunk.isEmpty else { throw Failure(description: "DevTools connection ended") }
            received += chunk
        }
        defer { received.removeFirst(count) }
        return Array(received.prefix(count))
    }

    // MARK: - Start-up

    /// The DevTools port Chromium writes to `DevToolsActivePort` in its profile (within 30 s).
    private static func waitForPort(in profile: URL) throws -> Int {
        let file = profile.appendingPathComponent("DevToolsActivePort")
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if let text = try? String(contentsOf: file, encoding: .utf8),
                let line = text.split(separator: "\n").first, let port = Int(line)
            {
                return port
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(description: "chromium did not open its DevTools port within 30 s")
    }

    /// The WebSocket path of the browser's first tab.
    private static func pagePath(port: Int) throws -> String {
        let connection = try RawConnection(port: port, timeout: .seconds(10))
        defer { connection.close() }
        try connection.send("GET /json/list HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
        let response = try connection.readResponse()
        let targets = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]] ?? []
        guard let page = targets.first(where: { $0["type"] as? String == "page" }),
            let url = page["webSocketDebuggerUrl"] as? String, let range = url.range(of: "/devtools/")
        else { throw Failure(description: "chromium lists no page target") }
        return String(url[range.lowerBound...])
    }
}
