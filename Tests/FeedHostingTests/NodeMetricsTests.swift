import Foundation
import HTTPCore
import TestSupport
import Testing

@testable import FeedHosting

/// `orgsocial serve --metrics-address`: the node's requests, latency, refusals and feeds on a listener
/// of their own.
@Suite struct NodeMetricsTests {
    /// `GET /metrics` on the node's metrics listener.
    private static func scrape(_ node: FeedNode) async throws -> String {
        let port = try #require(node.metricsPort)
        let response = try await offPool {
            try RawConnection.exchange(
                port: port, request: "GET /metrics HTTP/1.1\r\nHost: metrics.test\r\nConnection: close\r\n\r\n")
        }
        #expect(response.status == 200)
        return response.text
    }

    private static func configureMetrics(_ configuration: inout FeedNode.Configuration) {
        configuration.metricsAddress = ListenAddress(host: "127.0.0.1", port: 0)
    }

    @Test func countsRequestsByEndpointAndTheFeedsServed() async throws {
        try await withNode(configure: Self.configureMetrics) { node, root in
            try root.write(sampleFeed(), to: "social.org")
            try root.write(sampleFeed(nick: "bob"), to: "bob/social.org")
            let before = try await Self.scrape(node)
            _ = try await send(node, "/social.org")
            _ = try await send(node, "/bob/social.org")
            _ = try await send(node, "/carol/social.org")
            _ = try await send(node, "/healthz")
            let after = try await Self.scrape(node)

            #expect(!before.contains(#"orgsocial_node_requests_total{endpoint="feed""#))
            #expect(after.contains(#"orgsocial_node_requests_total{endpoint="feed",method="GET",status="200"} 2"#))
            #expect(after.contains(#"orgsocial_node_requests_total{endpoint="feed",method="GET",status="404"} 1"#))
            #expect(after.contains(#"orgsocial_node_request_duration_seconds_count{endpoint="feed"} 3"#))
            #expect(after.contains("orgsocial_node_feeds 2\n"))
            #expect(after.contains(#"orgsocial_node_connections_refused_total{limit="connections_per_address"} 0"#))
            #expect(try await send(node, "/metrics").status == 404)
        }
    }

    @Test func servesNoMetricsWithoutAnAddress() async throws {
        try await withNode { node, _ in
            #expect(node.metricsPort == nil)
        }
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func promtoolAcceptsTheScrapedText() async throws {
        try await withNode(configure: Self.configureMetrics) { node, root in
            try root.write(sampleFeed(), to: "social.org")
            _ = try await send(node, "/social.org")
            _ = try await send(node, "/public-routes")
            let result = try Promtool.checkMetrics(try await Self.scrape(node))

            #expect(result.status == 0, "\(result.output)")
        }
    }
}
