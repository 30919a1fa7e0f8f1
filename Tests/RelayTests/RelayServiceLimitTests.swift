import Foundation
import TestSupport
import Testing

/// `RelayService` runs with the client limits on by default (what `orgsocial relay serve` runs): event
/// streams and connections per address, malformed request heads.
@Suite struct RelayServiceLimitTests {
    @Test func capsEventStreamsPerAddressByDefault() async throws {
        try await withTestbed { bed in
            let port = bed.relayPort
            let statuses = try await offPool { () throws -> [Int] in
                var streams: [RawConnection] = []
                defer {
                    for stream in streams {
                        stream.close()
                    }
                }
                var statuses: [Int] = []
                for source in ["127.0.10.2", "127.0.10.2", "127.0.10.2", "127.0.10.2", "127.0.10.2", "127.0.10.3"] {
                    let connection = try RawConnection(port: port, timeout: .seconds(10), sourceAddress: source)
                    try connection.send("GET /sse/notifications/ HTTP/1.1\r\nHost: relay.test\r\n\r\n")
                    statuses.append(try connection.readHead().status)
                    streams.append(connection)
                }
                return statuses
            }
            #expect(statuses == [200, 200, 200, 200, 503, 200])
        }
    }

    @Test func closesConnectionsOverThePerAddressLimitAndServesOthersByDefault() async throws {
        try await withTestbed { bed in
            let port = bed.relayPort
            let (closed, status) = try await offPool { () throws -> (Int, Int) in
                var held: [RawConnection] = []
                defer {
                    for connection in held {
                        connection.close()
                    }
                }
                for _ in 0..<40 {
                    let connection = try RawConnection(port: port, timeout: .seconds(2), sourceAddress: "127.0.10.4")
                    try? connection.send("GET /feeds/ HTTP/1.1\r\nHost: relay.test\r\n")
                    held.append(connection)
                }
                // The 8 past the 32 allowed are closed by the server at once.
                let closed = held.suffix(8).filter { $0.waitForServerClose() }.count
                let response = try RawConnection.exchange(
                    port: port, request: "GET /feeds/ HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n")
                return (closed, response.status)
            }
            #expect(closed == 8)
            #expect(status == 200)
        }
    }

    @Test func refusesHostlessHTTP11AndEncodedControlCharacters() async throws {
        try await withTestbed { bed in
            let port = bed.relayPort
            let statuses = try await offPool {
                [
                    try RawConnection.exchange(port: port, request: "GET /feeds/ HTTP/1.1\r\n\r\n").status,
                    try RawConnection.exchange(port: port, request: "GET /feeds/ HTTP/1.0\r\n\r\n").status,
                    try RawConnection.exchange(
                        port: port, request: "GET /feeds/%00 HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n"
                    ).status,
                ]
            }
            #expect(statuses == [400, 200, 400])
        }
    }
}
