import Foundation
import HTTPCore
import HTTPServer
import RelayServer
import TestSupport
import Testing

extension RelayAPISuite {
    /// The relay's answers to the attacks of the security issue: registrations limited per address
    /// (DRF's throttling answer), and event streams capped in total and per address while everybody
    /// else is still served.
    @Suite
    struct RelayHardeningTests {
        private static func register(_ port: Int, _ feed: String, from source: String) throws -> RawResponse {
            let body = #"{"feed": "\#(feed)"}"#
            let connection = try RawConnection(port: port, timeout: .seconds(10), sourceAddress: source)
            try connection.send(
                "POST /feeds/ HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            return try connection.readResponse()
        }

        @Test func throttlesRegistrationsPerAddressWith429AndRetryAfter() async throws {
            let relay = try await RelayServerHarness {
                $0.registrationRate = .init(requests: 3, per: .seconds(60))
            }
            let port = relay.port
            let responses = try await offPool {
                try (1...4).map { try Self.register(port, "https://a\($0).example/social.org", from: "127.0.7.2") }
                    + [Self.register(port, "https://b.example/social.org", from: "127.0.7.3")]
            }
            #expect(responses.map { $0.status == 429 } == [false, false, false, true, false])
            let retryAfter = try #require(responses[3].header("Retry-After").flatMap(Int.init))
            #expect((1...20).contains(retryAfter))
            #expect(responses[3].text.hasPrefix(#"{"detail":"Request was throttled. Expected available in "#))
            // The refused registration never reached the gateway.
            #expect(await relay.gateway.registered.count == 4)
            await relay.stop()
        }

        @Test func throttlesRegistrationsPerIPv6Slash64() async throws {
            let relay = try await RelayServerHarness {
                $0.registrationRate = .init(requests: 2, per: .seconds(60))
            }
            func statusOfRegistration(from address: String) -> Int? {
                let request = HTTPRequest(
                    method: .post, target: "/feeds/", headers: ["Content-Type": "application/json"],
                    remoteAddress: address)
                return relay.responder.respondBeforeBody(to: request)?.status.code
            }
            // Three addresses of one /64 share a bucket; another /64 and an IPv4-mapped client do not.
            let statuses = [
                "2001:db8:7:1::1", "2001:db8:7:1::2", "2001:db8:7:1:abcd::3", "2001:db8:7:2::1", "::ffff:192.0.2.1",
            ].map(statusOfRegistration(from:))
            #expect(statuses == [nil, nil, 429, nil, nil])
            #expect(statusOfRegistration(from: "192.0.2.1") == nil)
            #expect(statusOfRegistration(from: "192.0.2.1") == 429)
            await relay.stop()
        }

        @Test func capsEventStreamsInTotalAndPerAddressAndStillAnswersOthers() async throws {
            raiseOpenFileLimit(toAtLeast: 4096)
            let relay = try await RelayServerHarness { _ in
            } daemon: {
                var limits = HTTPDaemon.ClientLimits()
                limits.maximumStreams = 40
                $0.clientLimits = limits
            }
            let port = relay.port
            // 60 streams asked from 12 addresses: 4 per address at most (the default), 40 in all.
            let statuses = try await offPool { () throws -> [Int] in
                var streams: [RawConnection] = []
                defer {
                    for stream in streams {
                        stream.close()
                    }
                }
                var statuses: [Int] = []
                for index in 0..<60 {
                    let connection = try RawConnection(
                        port: port, timeout: .seconds(10), sourceAddress: "127.0.8.\(2 + index / 5)")
                    try connection.send("GET /sse/notifications/ HTTP/1.1\r\nHost: relay.test\r\n\r\n")
                    statuses.append(try connection.readHead().status)
                    streams.append(connection)
                }
                let normal = try RawConnection.exchange(
                    port: port, request: "GET /feeds/ HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n")
                return statuses + [normal.status]
            }
            let perAddress = (0..<12).map { address in statuses[(address * 5)..<(address * 5 + 5)] }
            #expect(perAddress.allSatisfy { $0.filter { $0 == 200 }.count <= 4 })
            #expect(statuses.prefix(60).filter { $0 == 200 }.count == 40)
            #expect(statuses.prefix(60).allSatisfy { $0 == 200 || $0 == 503 })
            #expect(statuses.last == 200)
            await relay.stop()
        }
    }
}
