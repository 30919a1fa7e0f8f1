import Foundation
import RelayCore
import RelayServer
import RelayTestFixtures
import TestSupport
import Testing

extension RelayAPISuite {
    /// `/sse/notifications/` (`relay-api.md` §2.19): headers, `connected`, `notification` per feed and
    /// globally, `heartbeat`, and cleanup when the client goes away.
    @Suite
    struct RelayEventStreamTests {
        /// An open stream read event by event.
        final class Stream: @unchecked Sendable {
            // @unchecked: used by one test, through `offPool`, one call at a time.
            let connection: RawConnection
            let head: RawResponse
            private var pending = ""

            init(port: Int, target: String) throws {
                connection = try RawConnection(port: port, timeout: .seconds(30))
                try connection.send("GET \(target) HTTP/1.1\r\nHost: relay.test\r\nAccept: */*\r\n\r\n")
                head = try connection.readHead()
            }

            /// The next event as `(name, data)`.
            func next() throws -> (String, String) {
                while true {
                    if let end = pending.range(of: "\n\n") {
                        let block = String(pending[..<end.lowerBound])
                        pending = String(pending[end.upperBound...])
                        var name = ""
                        var data = ""
                        for line in block.split(separator: "\n") {
                            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                            if line.hasPrefix("data: ") { data = String(line.dropFirst(6)) }
                        }
                        return (name, data)
                    }
                    guard let chunk = try connection.readChunk() else {
                        throw RawConnection.Failure(description: "stream ended")
                    }
                    pending += String(decoding: chunk, as: UTF8.self)
                }
            }
        }

        static func open(_ relay: RelayServerHarness, _ target: String) async throws -> Stream {
            let port = relay.port
            return try await offPool { try Stream(port: port, target: target) }
        }

        static func next(_ stream: Stream) async throws -> (String, String) {
            try await offPool { try stream.next() }
        }

        /// bob's feed with one more reply (with an emoji mood) to alice's first post.
        static let bobWithAReaction =
            RelayFixtures.bob(base: RelayServerHarness.base)
                + """
                ** 2025-02-09T10:00:00+0100
                :PROPERTIES:
                :REPLY_TO: \(RelayServerHarness.alice)#2025-02-01T10:00:00+0100
                :MOOD: ❤
                :END:

                """

        @Test func aFeedStreamSaysConnectedThenGetsItsNotifications() async throws {
            let relay = try await RelayServerHarness { $0.notificationPollInterval = .milliseconds(20) }
            let stream = try await Self.open(
                relay, "/sse/notifications/?feed=" + RelayRoutingTests.encoded(RelayServerHarness.alice))
            #expect(stream.head.status == 200)
            #expect(stream.head.header("Content-Type") == "text/event-stream")
            #expect(stream.head.header("Cache-Control") == "no-cache")
            #expect(stream.head.header("X-Accel-Buffering") == "no")
            #expect(stream.head.header("Transfer-Encoding")?.lowercased() == "chunked")
            #expect(stream.head.header("ETag") != nil)
            RelayRoutingTests.expectCommonHeaders(stream.head)
            let connected = try await Self.next(stream)
            #expect(connected.0 == "connected")
            #expect(connected.1 == #"{"feed": "\#(RelayServerHarness.alice)", "status": "connected"}"#)

            // What was logged before the stream opened is not sent; a new reaction is.
            _ = try await relay.index(RelayServerHarness.bob, Self.bobWithAReaction)
            let event = try await Self.next(stream)
            #expect(event.0 == "notification")
            #expect(
                event.1
                    == #"{"type": "reaction", "post": "\#(RelayServerHarness.bob)#2025-02-09T10:00:00+0100", "emoji": "\u2764", "parent": "\#(RelayServerHarness.alice)#2025-02-01T10:00:00+0100"}"#
            )
            #expect(await relay.responder.openStreamCount() == 1)
            stream.connection.close()
            #expect(await eventually(timeout: .seconds(30)) { await relay.responder.openStreamCount() == 0 })
            await relay.stop()
        }

        @Test func theGlobalStreamAppendsTheTargetFeedAndOtherFeedsAreFiltered() async throws {
            let relay = try await RelayServerHarness { $0.notificationPollInterval = .milliseconds(20) }
            let global = try await Self.open(relay, "/sse/notifications/")
            let carolStream = try await Self.open(
                relay, "/sse/notifications/?feed=%20" + RelayRoutingTests.encoded(RelayServerHarness.carol))
            #expect(try await Self.next(global) == ("connected", #"{"status": "connected"}"#))
            #expect(try await Self.next(carolStream).1.contains(#""feed": "\#(RelayServerHarness.carol)""#))

            _ = try await relay.index(RelayServerHarness.bob, Self.bobWithAReaction)
            let event = try await Self.next(global)
            #expect(event.0 == "notification")
            #expect(event.1.hasPrefix(#"{"type": "reaction", "#))
            #expect(event.1.hasSuffix(#", "target_feed": "\#(RelayServerHarness.alice)"}"#))

            // carol's stream got nothing but its heartbeat-free silence; a boost of carol's post reaches it.
            let bobBoostingCarol =
                Self.bobWithAReaction
                    + """
                    ** 2025-02-10T10:00:00+0100
                    :PROPERTIES:
                    :INCLUDE: \(RelayServerHarness.carol)#2025-02-04T18:00:00-0500
                    :END:

                    """
            _ = try await relay.index(RelayServerHarness.bob, bobBoostingCarol)
            let boost = try await Self.next(carolStream)
            #expect(
                boost.1
                    == #"{"type": "boost", "post": "\#(RelayServerHarness.bob)#2025-02-10T10:00:00+0100", "boosted": "\#(RelayServerHarness.carol)#2025-02-04T18:00:00-0500"}"#
            )
            let globalBoost = try await Self.next(global)
            #expect(globalBoost.1.contains(#""type": "boost""#))
            global.connection.close()
            carolStream.connection.close()
            #expect(await eventually(timeout: .seconds(30)) { await relay.responder.openStreamCount() == 0 })
            await relay.stop()
        }

        @Test func heartbeatsComeEveryInterval() async throws {
            let relay = try await RelayServerHarness(loaded: false) { $0.heartbeatInterval = .milliseconds(100) }
            let stream = try await Self.open(relay, "/sse/notifications/")
            _ = try await Self.next(stream)
            let before = Int(Date().timeIntervalSince1970)
            for _ in 0..<2 {
                let (name, data) = try await Self.next(stream)
                #expect(name == "heartbeat")
                let prefix = #"{"status": "alive", "timestamp": "#
                #expect(data.hasPrefix(prefix))
                let seconds = Int(data.dropFirst(prefix.count).dropLast()) ?? 0
                #expect(abs(seconds - before) <= 2)
            }
            stream.connection.close()
            #expect(await eventually(timeout: .seconds(30)) { await relay.responder.openStreamCount() == 0 })
            await relay.stop()
        }

        @Test func headOfTheStreamSendsHeadersOnly() async throws {
            let relay = try await RelayServerHarness(loaded: false)
            let head = try await relay.send("HEAD", "/sse/notifications/")
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(await relay.responder.openStreamCount() == 0)
            await relay.stop()
        }
    }
}
