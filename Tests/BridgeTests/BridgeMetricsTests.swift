import Bridge
import Foundation
import Metrics
import TestSupport
import Testing
import TootClient

/// What `bridge run --metrics-address` counts: runs by result, pushes by result, pulls, the last
/// successful run, per account.
@Suite struct BridgeMetricsTests {
    private static func metrics() throws -> BridgeMetrics {
        let account = try sampleAccount()
        let client = try TootClient(instanceURL: account.instanceURL, accessToken: "token")
        return BridgeMetrics(accounts: [BridgeAccountClient(account: account, client: client)])
    }

    private static func record(pushed: Int, pulled: Int, finishedAt: Double, error: String? = nil) -> RunRecord {
        RunRecord(
            feed: "https://ana.example/social.org", account: "ana@mastodon.example",
            startedAt: Date(timeIntervalSince1970: finishedAt - 2), finishedAt: Date(timeIntervalSince1970: finishedAt),
            counts: RunCounts(pushed: pushed, edited: 1, deleted: 0, pulled: pulled), error: error)
    }

    @Test func startsEveryAccountsSeriesAtZero() throws {
        let text = try Self.metrics().registry.render()

        #expect(text.contains(#"orgsocial_bridge_runs_total{account="ana@mastodon.example",result="failed"} 0"#))
        #expect(text.contains(#"orgsocial_bridge_pushes_total{account="ana@mastodon.example",result="created"} 0"#))
        #expect(text.contains(#"orgsocial_bridge_pulls_total{account="ana@mastodon.example"} 0"#))
        #expect(text.contains(#"orgsocial_bridge_rate_limited_responses_total{account="ana@mastodon.example"} 0"#))
        #expect(!text.contains("orgsocial_bridge_last_success_timestamp_seconds{"))
    }

    @Test func countsRunsPushesAndPullsAndKeepsTheLastSuccessfulRun() throws {
        let metrics = try Self.metrics()
        metrics.record([Self.record(pushed: 2, pulled: 3, finishedAt: 1_780_000_100)])
        metrics.record([Self.record(pushed: 0, pulled: 1, finishedAt: 1_780_000_400, error: "HTTP 500")])
        let text = metrics.registry.render()

        #expect(text.contains(#"orgsocial_bridge_runs_total{account="ana@mastodon.example",result="succeeded"} 1"#))
        #expect(text.contains(#"orgsocial_bridge_runs_total{account="ana@mastodon.example",result="failed"} 1"#))
        #expect(text.contains(#"orgsocial_bridge_pushes_total{account="ana@mastodon.example",result="created"} 2"#))
        #expect(text.contains(#"orgsocial_bridge_pushes_total{account="ana@mastodon.example",result="edited"} 2"#))
        #expect(text.contains(#"orgsocial_bridge_pulls_total{account="ana@mastodon.example"} 4"#))
        #expect(
            text.contains(
                #"orgsocial_bridge_last_success_timestamp_seconds{account="ana@mastodon.example"} 1780000100"#))
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func promtoolAcceptsTheText() throws {
        let metrics = try Self.metrics()
        metrics.record([Self.record(pushed: 1, pulled: 1, finishedAt: 1_780_000_100)])
        let result = try Promtool.checkMetrics(metrics.registry.render())

        #expect(result.status == 0, "\(result.output)")
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func theKitsScrapeJobAndAlertRulePassPromtool() throws {
        let config = try Promtool.checkConfig(
            SharedCorpus.packageRoot.appendingPathComponent("bridge/prometheus.yml").path)

        #expect(config.status == 0, "\(config.output)")
        #expect(config.output.contains("SUCCESS: 1 rules found"))
    }

    @Test func theAlertRuleNamesMetricsTheBridgeServes() throws {
        let rules = try String(
            contentsOf: SharedCorpus.packageRoot.appendingPathComponent("bridge/alerts.yml"), encoding: .utf8)
        let names = Set(
            rules.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).filter {
                $0.hasPrefix("orgsocial_")
            }.map(String.init))
        let text = try Self.metrics().registry.render()

        #expect(names.count >= 2)
        for name in names {
            #expect(text.contains("# TYPE \(name) "), "\(name)")
        }
    }
}
