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

    private let values: SeriesValues

    init(name: String, help: String, labelNames: [String]) {
        self.name = name
        self.help = help
        self.labelNames = labelNames
        values = SeriesValues(name: name, labelNames: labelNames)
    }

    /// Sets the series of `labels` to `value`.
    ///
    /// - Parameters:
    ///   - value: The new value.
    ///   - labels: The label values, in ``labelNames`` order.
    package func set(_ value: Double, labels: [String] = []) {
        values.update(labels: labels) { $0 = value }
    }

    /// Adds `amount` (negative to lower it) to the series of `labels`.
    ///
    /// - Parameters:
    ///   - amount: What to add.
    ///   - labels: The label values.
    package func add(_ amount: Double, labels: [String] = []) {
        values.update(labels: labels) { $0 = ($0 ?? 0) + amount }
    }

    /// Drops the series of `labels` (it is no longer rendered).
    ///
    /// - Parameter labels: The label values.
    package func remove(labels: [String]) {
        values.update(labels: labels) { $0 = nil }
    }

    /// The value of the series of `labels`, or `nil` when it has none.
    ///
    /// - Parameter labels: The label values.
    /// - Returns: The value.
    package func value(labels: [String] = []) -> Double? {
        values.value(labels: labels)
    }

    func renderSamples(into text: inout String) {
        values.renderSamples(into: &text)
    }
}
