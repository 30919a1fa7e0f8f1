import Synchronization

/// A value that goes up and down, one series per set of label values.
///
/// A gauge without labels renders `0` until it is set; one with labels renders the series it was given.
package final class Gauge: MetricFamily {
    /// The metric name.
    package let name: String
    /// What it measures.
    package let help: String
    /// The label names.
    package let labelNames: [String]
    var type: MetricType { .gauge }

    private let values: Mutex<[[String]: Double]>

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        values = Mutex(labelNames.isEmpty ? [[]: 0] : [:])
    }

    /// Sets the series of `labels` to `value`.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - labels: The label values, in ``labelNames`` order.
    package func set(_ value: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "[Metrics bug] \(name) takes \(labelNames.count) labels.")
        values.withLock { $0[labels] = value }
    }

    /// Adds `amount` (negative to lower it) to the series of `labels`.
    ///
    /// - Parameters:
    ///   - amount: What to add.
    ///   - labels: The label values.
    package func add(_ amount: Double, labels: [String] = []) {
        precondition(labels.count == labelNames.count, "[Metrics bug] \(name) takes \(labelNames.count) labels.")
        values.withLock { $0[labels, default: 0] += amount }
    }

    /// Drops the series of `labels` (it is no longer rendered).
    ///
    /// - Parameter labels: The label values.
    package func remove(labels: [String]) {
        values.withLock { $0[labels] = nil }
    }

    /// The value of the series of `labels`, or `nil` when it has none.
    ///
    /// - Parameter labels: The label values.
    /// - Returns: The value.
    package func value(labels: [String] = []) -> Double? {
        values.withLock { $0[labels] }
    }

    func renderSamples(into text: inout String) {
        let series = values.withLock { $0 }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (labels, value) in series {
            text += MetricText.sampleLine(name, labels: zip(labelNames, labels).map { ($0, $1) }, value: value)
        }
    }
}
