import FeedHosting
import Foundation
import OrgSocial
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

private let engineRuns = OfficialEngine.testsRun(suite: "OfficialEngineNodeTests")

/// The official client's engine (`orgsocial-engine` from the org-social-tui wheel) publishing to
/// `orgsocial serve` as to a WebDAV share (issue 45): `upload.method = "webdav"` with any user name and
/// the feed's token as the password, which the node takes as HTTP Basic.
@Suite(.enabled(if: engineRuns)) struct OfficialEngineNodeTests {
    /// The answers of the engine to `initialize` with `upload`, then to `publish` with `text`, in order; every
    /// URL it is given is on 127.0.0.1 (the mirror it notifies after the write is the node itself, which
    /// answers 404; the engine ignores that outcome).
    static func initializeAndPublish(upload: [String: String], feed: String, mirror: String, text: String)
        async throws -> (initialized: [String: Any], published: [String: Any])
    {
        let engine = try OfficialEngine.requirePath()
        let home = try TemporaryFolder()
        defer { home.remove() }
        let initialize: [String: Any] = [
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": [
                "mirror": mirror, "relay": mirror, "preview": mirror, "feed": feed, "upload": upload,
                "client": "orgsocial-tests",
            ],
        ]
        let publish: [String: Any] = ["jsonrpc": "2.0", "id": 2, "method": "publish", "params": ["text": text]]
        let lines = try [initialize, publish].map {
            String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) + "\n"
        }
        let answers = try await offPool { () throws -> [String] in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: engine)
            // Only these variables: no proxy setting may send the engine's requests anywhere but 127.0.0.1.
            process.environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let pid = process.processIdentifier
            let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
            defer { watchdog.cancel() }
            // `publish` only after the answer to `initialize`: the engine does not wait for it itself.
            input.fileHandleForWriting.write(Data(lines[0].utf8))
            var received = Data()
            while !received.contains(UInt8(ascii: "\n")) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                received += chunk
            }
            input.fileHandleForWriting.write(Data(lines[1].utf8))
            // At the end of its input the engine finishes the write, answers it and exits.
            try input.fileHandleForWriting.close()
            received += output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: received, as: UTF8.self).split(separator: "\n").map(String.init)
        }
        let objects = try answers.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
        }
        try #require(objects.count == 2, "\(answers)")
        return (objects[0], objects[1])
    }

    @Test func theEnginePublishesToTheNodeWithTheTokenAsTheWebDAVPassword() async throws {
        try await withNode { test in
            try test.root.write(emptyFeed(nick: "ana"), to: "ana/social.org")
            let token = try test.issueToken(folder: "ana")
            let site = "http://127.0.0.1:\(test.node.port)"
            let feed = "\(site)/ana/social.org"
            let (initialized, published) = try await Self.initializeAndPublish(
                upload: ["method": "webdav", "url": feed, "username": "anything", "password": token],
                feed: feed, mirror: "\(site)/api", text: "Hello from the official engine")
            let account = try #require(initialized["result"] as? [String: Any], "\(initialized)")
            #expect(account["canWrite"] as? Bool == true)
            let result = try #require(published["result"] as? [String: Any], "\(published)")
            let timestamp = try #require(result["timestamp"] as? String)
            let file = try #require(test.fileText("ana/social.org"))
            #expect(file.hasPrefix(emptyFeed(nick: "ana")))
            #expect(file.contains("** \(timestamp)\n:PROPERTIES:\n:CLIENT: orgsocial-tests\n:END:\n"))
            #expect(file.hasSuffix("\nHello from the official engine\n"))
        }
    }

    @Test func aWrongPasswordFailsWith401AndNothingLands() async throws {
        try await withNode { test in
            try test.root.write(emptyFeed(nick: "ana"), to: "ana/social.org")
            _ = try test.issueToken(folder: "ana")
            let site = "http://127.0.0.1:\(test.node.port)"
            let feed = "\(site)/ana/social.org"
            let (_, published) = try await Self.initializeAndPublish(
                upload: ["method": "webdav", "url": feed, "username": "anything", "password": "not-the-token"],
                feed: feed, mirror: "\(site)/api", text: "Should not land")
            let error = try #require(published["error"] as? [String: Any], "\(published)")
            #expect(error["code"] as? Int == -32002)
            #expect((error["message"] as? String)?.contains("401") == true, "\(error)")
            #expect(test.fileText("ana/social.org") == emptyFeed(nick: "ana"))
        }
    }

    @Test func twoOrgsocialCopiesAndTheOfficialClientWritingAtOnceKeepEveryPost() async throws {
        try await withNode { test in
            try test.root.write(emptyFeed(nick: "ana"), to: "ana/social.org")
            let token = try test.issueToken(folder: "ana")
            let site = "http://127.0.0.1:\(test.node.port)"
            let feed = "\(site)/ana/social.org"
            let home = try TemporaryFolder()
            defer { home.remove() }
            let laptop = try home.write(emptyFeed(nick: "ana"), to: "laptop.org")
            let desktop = try home.write(emptyFeed(nick: "ana"), to: "desktop.org")
            let environment = ["HOME": home.path, "ORGSOCIAL_FEED_URL": feed, "ORGSOCIAL_TOKEN": token]
            // One copy publishes with PUT, the other as a WebDAV client; the official engine as one too.
            async let fromLaptop = [
                await runCLI(["post", "--file", laptop, "--text", "Laptop 1", "--publish"], environment: environment),
                await runCLI(["post", "--file", laptop, "--text", "Laptop 2", "--publish"], environment: environment),
            ]
            let webdav = ["--publish-method", "webdav", "--publish-username", "ana"]
            async let fromDesktop = [
                await runCLI(
                    ["post", "--file", desktop, "--text", "Desktop 1", "--publish"] + webdav, environment: environment),
                await runCLI(
                    ["post", "--file", desktop, "--text", "Desktop 2", "--publish"] + webdav, environment: environment),
            ]
            async let fromEngine = Self.initializeAndPublish(
                upload: ["method": "webdav", "url": feed, "username": "ana", "password": token], feed: feed,
                mirror: "\(site)/api", text: "Official client")
            let results = await fromLaptop + fromDesktop
            let (_, engine) = try await fromEngine
            // A copy that met three stale writes in a row keeps its post in its file and says so; a sync then
            // publishes it.
            for result in results where result.status != 0 {
                #expect(result.error.contains("saved in"), "\(result.error)")
            }
            for file in [laptop, desktop] {
                let synced = await runCLI(["sync", "--file", file], environment: environment)
                #expect(synced.status == 0, "\(synced.error)")
            }
            var expected = ["Laptop 1", "Laptop 2", "Desktop 1", "Desktop 2"]
            // The official client gives up after three stale writes (-32007, nothing uploaded); otherwise its
            // post is there too.
            if engine["result"] != nil {
                expected.append("Official client")
            } else {
                let error = try #require(engine["error"] as? [String: Any], "\(engine)")
                #expect(error["code"] as? Int == -32007, "\(engine)")
            }
            let bodies = Feed(parsing: try #require(test.fileText("ana/social.org"))).posts.map(\.body)
            #expect(Set(bodies) == Set(expected))
            #expect(bodies.count == expected.count)
        }
    }
}
