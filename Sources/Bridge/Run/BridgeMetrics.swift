import Foundation
package import Metrics
import TootClient

/// The metrics of `bridge run --metrics-address`: runs by result, statuses pushed (created, edited,
/// deleted) and pulled, the 429 answers the accounts' instances sent, and each account's last successful
/// run, all by account name.
///
/// ```swift
/// let metrics = BridgeMetrics(accounts: cycle.accounts)
/// metrics.record(try await cycle.run())
/// ```
package final class BridgeMetrics: Sendable {
    /// Where everything is registered.
    package let registry: MetricsRegistry
    private let runs: Counter
    private let pushes: Counter
    private let pulls: Counter
    private let lastSuccess: Gauge

    /// Registers the bridge's metrics for the cycle's accounts.
    ///
    /// - Parameter accounts: The accounts the cycles run for; their clients' 429 counts are read at each
    ///   scrape.
    package init(accounts: [BridgeAccountClient]) {
        let registry = MetricsRegistry()
        self.registry = registry
        runs = registry.counter(
            "orgsocial_bridge_runs_total", help: "Bridge runs of one account, by result (succeeded, failed).",
            labelNames: ["account", "result"])
        pushes = registry.counter(
            "orgsocial_bridge_pushes_total",
            help: "Statuses the bridge wrote to the account, by result (created, edited, deleted).",
            labelNames: ["account", "result"])
        pulls = registry.counter(
            "orgsocial_bridge_pulls_total", help: "Statuses the bridge added to the feed from the account.",
            labelNames: ["account"])
        let clients = accounts.map { (name: $0.account.name, client: $0.client) }
        registry.observe(
            "orgsocial_bridge_rate_limited_responses_total",
            help: "429 (Too Many Requests) answers from the account's instance, retried ones included.",
            type: .counter, labelNames: ["account"]
        ) {
            clients.map { MetricSample(labels: [$0.name], value: Double($0.client.tooManyRequestsCount)) }
        }
        lastSuccess = registry.gauge(
            "orgsocial_bridge_last_success_timestamp_seconds",
            help: "When the account's last successful run ended, in seconds since the Unix epoch.",
            labelNames: ["account"])
        for (name, _) in clients {
            for result in ["succeeded", "failed"] {
                runs.increment(by: 0, labels: [name, result])
            }
            for result in ["created", "edited", "deleted"] {
                pushes.increment(by: 0, labels: [name, result])
            }
            pulls.increment(by: 0, labels: [name])
        }
    }

    /// Counts a cycle's runs.
    ///
    /// - Parameter records: What ``BridgeCycle/run()`` returned.
    package func record(_ records: [RunRecord]) {
        for record in records {
            let account = record.account
            runs.increment(labels: [account, record.error == nil ? "succeeded" : "failed"])
            pushes.increment(by: Double(record.counts.pushed), labels: [account, "created"])
            pushes.increment(by: Double(record.counts.edited), labels: [account, "edited"])
            pushes.increment(by: Double(record.counts.deleted), labels: [account, "deleted"])
            pulls.increment(by: Double(record.counts.pulled), labels: [account])
            if record.error == nil {
                lastSuccess.set(record.finishedAt.timeIntervalSince1970, labels: [account])
            }
        }
    }
}
