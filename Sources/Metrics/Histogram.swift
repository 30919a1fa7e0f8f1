import Synchronization

/// Observations (durations, sizes) counted into buckets, one series per set of label values, rendered as
/// cumulative `_bucket{le="…"}` lines ending with `le="+Inf"`, then `_sum` and `_count`.
package final class Histogram: MetricFamily {
    /// Prometheus clients' default buckets, in seconds: 5 ms to 10 s.
    package static let defaultBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    /// The metric name.
    package let name: String
    /// What it observes.
    package let help: String
    /// The label names (without `le`).
    package let labelNames: [String]
    /// The buckets' upper bounds, ascending, without `+Inf`.
    package let buckets: [Double]
    var type: MetricType { .histogram }

    /// One series: how many observations fell in each bucket (not cumulative; the last is `+Inf`'s own).
    struct Series: Sendable, Equatable {
        var counts: [UInt64]
        var sum: Double = 0
        var count: UInt64 = 0
    }

    private let series: Mutex<[[String]: Series]>

    init(name: String, help: String, labelNames: [String], buckets: [Double]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        self.buckets = Array(Set(buckets.filter { $0.isFinite })).sorted()
        let empty = Series(counts: Array(repeating: 0, count: self.buckets.count + 1))
        series = Mutex(labelNames.isEmpty ? [[]: empty] : [:])
    }

    /// Counts one observation in the series of `labels`.
    ///
    /// - Parameters:
    ///   - value: The observation, in the metric's unit.
    ///   - labels: The label values, in ``labelNames`` order.
    package func observe(_ value: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "[Metrics bug] \(name) takes \(labelNames.count) labels.")
        // The first bucket whose bound is at least the value (`le` is inclusive); past the last, `+Inf`.
        var low = 0
        var high = buckets.count
        while low < high {
            let middle = (low + high) / 2
            if buckets[middle] < value { low = middle + 1 } else { high = middle }
        }
        let bucket = low
        let bucketCount = buckets.count + 1
        series.withLock { all in
            var entry = all[labels] ?? Series(counts: Array(repeating: 0, count: bucketCount))
            entry.counts[bucket] += 1
            entry.sum += value
            entry.count += 1
            all[labels] = entry
        }
    }

    /// Counts one duration in seconds.
    ///
    /// - Parameters:
    ///   - duration: The duration.
    ///   - labels: The label values.
    package func observe(_ duration: Duration, labels: [String] = []) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18, labels: labels)
    }

    /// The number of observations in the series of `labels`.
    ///
    /// - Parameter labels: The label values.
    /// - Returns: The count.
    package func count(labels: [String] = []) -> UInt64 {
        series.withLock { $0[labels]?.count ?? 0 }
    }

    func renderSamples(into text: inout String) {
        let all = series.withLock { $0 }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (labels, entry) in all {
            let pairs = zip(labelNames, labels).map { ($0, $1) }
            var cumulative: UInt64 = 0
            for (index, bound) in buckets.enumerated() {
                cumulative += entry.counts[index]
                text += MetricText.sampleLine(
                    "\(name)_bucket", labels: pairs + [("le", MetricText.number(bound))], value: Double(cumulative))
            }
            text += MetricText.sampleLine(
                "\(name)_bucket", labels: pairs + [("le", "+Inf")], value: Double(entry.count))
            text += MetricText.sampleLine("\(name)_sum", labels: pairs, value: entry.sum)
            text += MetricText.sampleLine("\(name)_count", labels: pairs, value: Double(entry.count))
        }
    }
}
