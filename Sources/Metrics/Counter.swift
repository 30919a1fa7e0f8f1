/// A value that only goes up, one series per set of label values.
///
/// A counter without labels renders `0` before its first increment; one with labels renders a series
/// once it has been incremented (by 0 to make a series show before anything happened).
package final class Counter: MetricFamily {
    /// The metric name.
    package let name: String
    /// What it counts.
    package let help: String
    /// The label names.
    package let labelNames: [String]
    var type: MetricType { .counter }

    private let values: SeriesValues

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        values = SeriesValues(name: name, labelNames: labelNames)
    }

    /// Adds `amount` to the series of `labels`.
    ///
    /// - Parameters:
    ///   - amount: What to add; not negative.
    ///   - labels: The label values, in ``labelNames`` order.
    package func increment(by amount: Double = 1, labels: [String] = []) {
        precondition(amount >= 0, "[Metrics bug] \(name) cannot go down.")
        values.update(labels: labels) { $0 = ($0 ?? 0) + amount }
    }

    /// The value of the series of `labels` (0 when it has none yet).
    ///
    /// - Parameter labels: The label values.
    /// - Returns: The value.
    package func value(labels: [String] = []) -> Double {
        values.value(labels: labels) ?? 0
    }

    func renderSamples(into text: inout String) {
        values.renderSamples(into: &text)
    }
}
