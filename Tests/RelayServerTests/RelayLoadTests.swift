import Foundation
import RelayServer
import TestSupport
import Testing

extension RelayAPISuite {
    /// Many connections at once, and clients that hold connections open (a half-sent request, an event
    /// stream), do not stop the relay answering everybody else.
    @Suite
    struct RelayLoadTests {
        @Test func aThousandConcurrentConnectionsAreAnsweredWhileSlowClientsHoldTheirs() async throws {
            let relay = try await RelayServerHarness { $0.changeCheckInterval = .seconds(5) }
            let port = relay.port
            let target = RelayCachingTests.mentionsOfBob
            let expected = try await relay.send("GET", target)
            #expect(expected.status == 200)

            // A client that sends half a request and stalls, and one that holds an event stream.
            let slow = try RawConnection(port: port, timeout: .seconds(30))
            try slow.send("GET / HTTP/1.1\r\nHost: rel")
            let stream = try await RelayEventStreamTests.open(relay, "/sse/notifications/")
            _ = try await RelayEventStreamTests.next(stream)

            let count = 1000
            let started = ContinuousClock.now
            let statuses = try await offPool { () throws -> [Int] in
                var connections: [RawConnection] = []
                connections.reserveCapacity(count)
                for _ in 0..<count {
                    let connection = try RawConnection(port: port, timeout: .seconds(60))
                    connections.append(connection)
                }
                for connection in connections {
                    try connection.send("GET \(target) HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n")
                }
                var statuses: [Int] = []
                for connection in connections {
                    let response = try connection.readResponse()
                    statuses.append(response.body == expected.body ? response.status : -response.status)
                    connection.close()
                }
                return statuses
            }
            let elapsed = ContinuousClock.now - started
            #expect(statuses.count == count)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(elapsed < .seconds(60), "1,000 connections took \(elapsed)")

            // The stalled client and the stream are still there, and the server still answers.
            #expect(await relay.responder.openStreamCount() == 1)
            try slow.send("ay.test\r\nConnection: close\r\n\r\n")
            let late = try await offPool { try slow.readResponse() }
            #expect(late.status == 200)
            let after = try await relay.send("GET", "/stats/")
            #expect(after.status == 200)
            stream.connection.close()
            await relay.stop()
        }
    }
}
