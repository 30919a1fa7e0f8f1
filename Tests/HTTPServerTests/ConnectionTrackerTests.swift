import Foundation
import HTTPCore
import Testing

@testable import HTTPServer

/// ``ConnectionTracker`` counts connections and streams per ``ClientAddressKey``, so the addresses of
/// one IPv6 /64 share one limit (loopback offers a single IPv6 address, so this is shown on the tracker).
@Suite struct ConnectionTrackerTests {
    /// A connected pair of real sockets; the tracker may shut `tracked` down.
    private final class SocketPair {
        let tracked: Int32
        let peer: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
                throw CocoaError(.fileReadUnknown)
            }
            tracked = ends[0]
            peer = ends[1]
        }

        /// Whether the tracked end was shut down: the peer then reads end of stream at once.
        var wasShut: Bool {
            var byte: UInt8 = 0
            return recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
        }

        deinit {
            close(tracked)
            close(peer)
        }
    }

    @Test func countsTheConnectionsOfOneIPv6Slash64Together() throws {
        let tracker = ConnectionTracker(limits: .none, connectionLimit: 100, connectionsPerAddress: 2)
        let sockets = try (0..<5).map { _ in try SocketPair() }
        let addresses = ["2001:db8:5:1::1", "2001:db8:5:1::2", "2001:db8:5:1:ffff::9", "2001:db8:5:2::1", "192.0.2.4"]
        let openings = addresses.indices.map {
            tracker.opened($0, socket: sockets[$0].tracked, address: ClientAddressKey(addresses[$0]))
        }
        #expect(openings == [.admitted, .admitted, .refusedOverAddressLimit, .admitted, .admitted])
        #expect(sockets.map(\.wasShut) == [false, false, true, false, false])
        #expect(tracker.connections(of: "2001:db8:5:1::") == 2)
        #expect(tracker.liveConnections == 4)
        // Once one closes, the /64 may open another; the refused one leaves no count behind.
        tracker.closed(2)
        tracker.closed(0)
        #expect(tracker.connections(of: "2001:db8:5:1::7") == 1)
        let again = try SocketPair()
        #expect(tracker.opened(9, socket: again.tracked, address: "2001:db8:5:1::abc") == .admitted)
    }

    @Test func capsTheStreamsOfOneIPv6Slash64Together() {
        var limits = HTTPDaemon.ClientLimits.none
        limits.maximumStreamsPerAddress = 2
        let tracker = ConnectionTracker(limits: limits, connectionLimit: 100, connectionsPerAddress: nil)
        #expect(tracker.acquireStream(address: ClientAddressKey("2001:db8:6::1")))
        #expect(tracker.acquireStream(address: ClientAddressKey("2001:db8:6::2")))
        #expect(!tracker.acquireStream(address: ClientAddressKey("2001:db8:6:0:1::3")))
        #expect(tracker.acquireStream(address: ClientAddressKey("2001:db8:6:1::1")))
        tracker.releaseStream(address: ClientAddressKey("2001:db8:6::1"))
        #expect(tracker.acquireStream(address: ClientAddressKey("2001:db8:6::4")))
    }
}
