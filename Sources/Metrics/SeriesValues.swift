import Synchronization

/// The values of one metric family, one per set of label values, as counters and gauges keep them.
struct SeriesValues: ~Copyable, Sendable {
    /// The metric name, for messages and samples.
    let name: String
    /// The label names.
    let labelNames: [String]
    private let values: Mutex<[[String]: Double]>

    /// Starts with one series at 0 when there are no labels, else none.
    init(name: String, labelNames: [String]) {
        self.name = name
        self.labelNames = labelNames
        values = Mutex(labelNames.isEmpty ? [[]: 0] : [:])
    }

    /// Changes the series of `labels` (`nil` when it has none; set `nil` to drop it).
    func update(labels: [String], _ change: (inout Double?) -> Void) {
        precondition(labels.count == labelNames.count, "[Metrics bug] \(name) takes \(labelNames.count) labels.")
        values.withLock { change(&$0[labels]) }
    }

    /// The value of the series of `labels`, or `nil`.
    func value(labels: [String]) -> Double? {
        values.withLock { $0[labels] }
    }

    /// Appends one sample line per series, in label order.
    func renderSamples(into text: inout String) {
        let series = values.withLock { $0 }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        for (labels, value) in series {
            text += MetricText.sampleLine(name, labels: zip(labelNames, labels).map { ($0, $1) }, value: value)
        }
    }
}
