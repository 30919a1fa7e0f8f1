import Foundation
import HTTPClient
import HTTPCore
import Relay
import RelayCore
import TestSupport
import Testing

/// A relay with `--metrics-address`: its own listener serves `GET /metrics`, the counters move with
/// requests and crawl passes, promtool accepts the text, and the API's listener answers the health probes.
@Suite struct RelayMetricsTests {
    /// `GET /metrics` on the relay's metrics listener.
    private static func scrape(_ bed: RelayTestbed) async throws -> String {
        let port = try #require(await bed.relay.metricsPort)
        let response = try await offPool {
            try RawConnection.exchange(
                port: port, request: "GET /metrics HTTP/1.1\r\nHost: metrics.test\r\nConnection: close\r\n\r\n")
        }
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        return response.text
    }

    /// The value of the sample line that starts with `series` (name and labels), or `nil`.
    private static func value(_ series: String, in text: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Double($0.dropFirst(series.count + 1))
        }
    }

    @Test func countersMoveWithRequestsAndACrawlPass() async throws {
        try await withTestbed(metricsAddress: ListenAddress(host: "127.0.0.1", port: 0)) { bed in
            let before = try await Self.scrape(bed)
            try await bed.registerValidFeeds()
            let report = await bed.relay.scanOnce(forceDiscovery: true)
            for _ in 0..<3 {
                _ = try await bed.get("/feeds/")
            }
            _ = try await bed.get("/no-such-page/")
            let after = try await Self.scrape(bed)

            #expect(Self.value(#"orgsocial_relay_requests_total{endpoint="/feeds/",status="200"}"#, in: before) == nil)
            #expect(Self.value(#"orgsocial_relay_requests_total{endpoint="/feeds/",status="201"}"#, in: after) == 3)
            #expect(Self.value(#"orgsocial_relay_requests_total{endpoint="/feeds/",status="200"}"#, in: after) == 3)
            #expect(Self.value(#"orgsocial_relay_requests_total{endpoint="not_found",status="404"}"#, in: after) == 1)
            #expect(Self.value(#"orgsocial_relay_request_duration_seconds_count{endpoint="/feeds/"}"#, in: after) == 6)
            #expect(Self.value("orgsocial_relay_response_cache_misses_total", in: after) == 1)
            #expect(Self.value("orgsocial_relay_response_cache_hits_total", in: after) == 2)
            #expect(Self.value(#"orgsocial_relay_crawl_passes_total{result="completed"}"#, in: before) == 0)
            #expect(Self.value(#"orgsocial_relay_crawl_passes_total{result="completed"}"#, in: after) == 1)
            #expect(Self.value(#"orgsocial_relay_crawl_feeds_total{result="fetched"}"#, in: after) == 3)
            #expect(Self.value(#"orgsocial_relay_crawl_feeds_total{result="failed"}"#, in: after) == 0)
            #expect(
                Self.value("orgsocial_relay_crawl_posts_added_total", in: after) == Double(report.postsAdded))
            #expect(report.postsAdded > 0)
            #expect(Self.value("orgsocial_relay_crawl_pass_duration_seconds_count", in: after) == 1)
            #expect(Self.value("orgsocial_relay_feeds", in: before) == 0)
            #expect(Self.value("orgsocial_relay_feeds", in: after) == 3)
            #expect((Self.value("orgsocial_relay_posts", in: after) ?? 0) > 0)
            #expect((Self.value("orgsocial_relay_database_size_bytes", in: after) ?? 0) > 0)
            #expect(Self.value(#"orgsocial_relay_webmention_queue_depth{status="pending"}"#, in: after) != nil)
            #expect(
                Self.value(#"orgsocial_relay_connections_refused_total{limit="connections_per_address"}"#, in: after)
                    == 0)
        }
    }

    @Test func aCrawlWorkerServesItsPassesWhileItCrawls() async throws {
        try await withTestbed { bed in
            try await bed.registerValidFeeds()
            var configuration = bed.configuration
            configuration.scanInterval = .milliseconds(200)
            configuration.metricsAddress = ListenAddress(host: "127.0.0.1", port: 0)
            let worker = try await RelayService(configuration: configuration)
            let running = Task { try await worker.runCrawler() }
            var text = ""
            let crawled = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(100)) {
                guard let port = await worker.metricsPort else { return false }
                text = try await offPool {
                    try RawConnection.exchange(
                        port: port, request: "GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"
                    ).text
                }
                return (Self.value(#"orgsocial_relay_crawl_passes_total{result="completed"}"#, in: text) ?? 0) >= 2
            }
            running.cancel()
            try await running.value

            #expect(crawled)
            #expect(Self.value(#"orgsocial_relay_crawl_feeds_total{result="fetched"}"#, in: text) == 3)
            #expect((Self.value(#"orgsocial_relay_crawl_feeds_total{result="not_modified"}"#, in: text) ?? 0) >= 3)
            #expect((Self.value("orgsocial_relay_crawl_last_pass_timestamp_seconds", in: text) ?? 0) > 1_700_000_000)
            #expect(await worker.metricsPort == nil)
        }
    }

    @Test func countsConnectionsRefusedByThePerAddressLimit() async throws {
        try await withTestbed(metricsAddress: ListenAddress(host: "127.0.0.1", port: 0)) { bed in
            let port = bed.relayPort
            let closed = try await offPool { () throws -> Int in
                var held: [RawConnection] = []
                defer {
                    for connection in held {
                        connection.close()
                    }
                }
                for _ in 0..<36 {
                    let connection = try RawConnection(port: port, timeout: .seconds(2), sourceAddress: "127.0.11.4")
                    try? connection.send("GET /feeds/ HTTP/1.1\r\nHost: relay.test\r\n")
                    held.append(connection)
                }
                // The 4 past the 32 allowed are closed by the server at once.
                return held.suffix(4).filter { $0.waitForServerClose() }.count
            }
            let text = try await Self.scrape(bed)

            #expect(closed == 4)
            #expect(
                Self.value(#"orgsocial_relay_connections_refused_total{limit="connections_per_address"}"#, in: text)
                    == 4)
        }
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func promtoolAcceptsTheScrapedText() async throws {
        try await withTestbed(metricsAddress: ListenAddress(host: "127.0.0.1", port: 0)) { bed in
            try await bed.registerAndScan()
            _ = try await bed.get("/feeds/")
            _ = try await bed.get("/groups/emacs/")
            let text = try await Self.scrape(bed)

            let result = try Promtool.checkMetrics(text)
            #expect(result.status == 0, "\(result.output)")
        }
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func theKitsScrapeJobAndAlertRulesPassPromtool() throws {
        let kit = SharedCorpus.packageRoot.appendingPathComponent("relay")
        let rules = try Promtool.checkRules([kit.appendingPathComponent("alerts.yml").path])
        let config = try Promtool.checkConfig(kit.appendingPathComponent("prometheus.yml").path)

        #expect(rules.status == 0, "\(rules.output)")
        #expect(rules.output.contains("SUCCESS: 3 rules found"))
        #expect(config.status == 0, "\(config.output)")
    }

    @Test func theAlertRulesNameMetricsTheRelayServes() async throws {
        let rules = try String(
            contentsOf: SharedCorpus.packageRoot.appendingPathComponent("relay/alerts.yml"), encoding: .utf8)
        let names = Set(
            rules.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).filter {
                $0.hasPrefix("orgsocial_")
            }.map(String.init))
        try await withTestbed(metricsAddress: ListenAddress(host: "127.0.0.1", port: 0)) { bed in
            let text = try await Self.scrape(bed)

            #expect(names.count >= 3)
            for name in names {
                let family = name.hasSuffix("_bucket") ? String(name.dropLast("_bucket".count)) : name
                #expect(text.contains("# TYPE \(family) "), "\(name)")
            }
        }
    }

    @Test func servesNoMetricsWithoutAnAddressAndTheMetricsPathIsNotOnTheAPI() async throws {
        try await withTestbed { bed in
            let onTheAPI = try await bed.get("/metrics")

            #expect(await bed.relay.metricsPort == nil)
            #expect(onTheAPI.status == 404)
        }
    }

    @Test func theAPIListenerAnswersLivenessAndReadiness() async throws {
        try await withTestbed { bed in
            let live = try await bed.get("/healthz")
            let ready = try await bed.get("/readyz")

            #expect(live.status == 200 && live.text == "ok\n")
            #expect(ready.status == 200 && ready.text == "ok\n")
        }
    }
}

/// `/readyz` on a PostgreSQL relay follows the database: 503 while the server is stopped, 200 again once
/// it is back, while `/healthz` answers throughout.
@Suite(.serialized) struct RelayReadinessTests {
    @Test(.enabled(if: PostgresTestCluster.isInstalled, "PostgreSQL is not installed (scripts/setup --with-postgres)"))
    func readinessFollowsPostgreSQLStoppingAndStartingAgain() async throws {
        let cluster = try PostgresTestCluster()
        defer { cluster.remove() }
        var configuration = RelayTestbed.makeConfiguration(databasePath: cluster.url, groups: [])
        configuration.shutdownDeadline = .seconds(5)
        let relay = try await RelayService(configuration: configuration)
        let port = try await relay.start()
        func status(_ path: String) async throws -> Int {
            try await offPool {
                try RawConnection.exchange(
                    port: port, request: "GET \(path) HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n"
                ).status
            }
        }
        do {
            let readyAtFirst = try await status("/readyz")
            try cluster.pause()
            let downReady = try await status("/readyz")
            let downLive = try await status("/healthz")
            try cluster.resume()
            let recovered = try await eventually(timeout: .seconds(20), pollingEvery: .milliseconds(200)) {
                try await status("/readyz") == 200
            }

            #expect(readyAtFirst == 200)
            #expect(downReady == 503)
            #expect(downLive == 200)
            #expect(recovered)
        } catch {
            await relay.stop()
            throw error
        }
        await relay.stop()
    }
}
