import Synchronization

/// The metrics one process exposes, rendered in the Prometheus text exposition format 0.0.4
/// (<https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format>).
///
/// ```swift
/// let registry = MetricsRegistry()
/// let requests = registry.counter(
///     "orgsocial_relay_requests_total", help: "HTTP requests answered.", labelNames: ["endpoint", "status"])
/// requests.increment(labels: ["/feeds/", "200"])
/// let text = registry.render()   // served as `MetricsRegistry.contentType`
/// ```
///
/// Metrics are rendered in the order they were registered, each with its `# HELP` and `# TYPE` lines,
/// and its series sorted by label values, so two renderings of the same values are the same text.
/// Every metric is safe to update from any thread; rendering takes each metric's lock once.
package final class MetricsRegistry: Sendable {
    /// The `Content-Type` of ``render()``'s text.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    private let families = Mutex<[any MetricFamily]>([])

    /// Makes an empty registry.
    package init() {}

    /// Registers a counter: a value that only goes up (restarting from 0 with the process).
    ///
    /// - Parameters:
    ///   - name: The metric name, ending in `_total` by Prometheus convention.
    ///   - help: One line saying what it counts.
    ///   - labelNames: The names of its labels, in the order ``Counter/increment(by:labels:)`` takes values.
    /// - Returns: The counter.
    package func counter(_ name: String, help: String, labelNames: [String] = []) -> Counter {
        register(Counter(name: name, help: help, labelNames: labelNames))
    }

    /// Registers a gauge: a value that goes up and down.
    ///
    /// - Parameters:
    ///   - name: The metric name, in base units (`_bytes`, `_seconds`).
    ///   - help: One line saying what it measures.
    ///   - labelNames: The names of its labels.
    /// - Returns: The gauge.
    package func gauge(_ name: String, help: String, labelNames: [String] = []) -> Gauge {
        register(Gauge(name: name, help: help, labelNames: labelNames))
    }

    /// Registers a histogram: observations counted into cumulative buckets, with their sum and count.
    ///
    /// - Parameters:
    ///   - name: The metric name, in base units (`_seconds`).
    ///   - help: One line saying what it observes.
    ///   - labelNames: The names of its labels (not `le`, which the buckets use).
    ///   - buckets: The buckets' upper bounds; sorted and made unique, `+Inf` is always added.
    /// - Returns: The histogram.
    package func histogram(
        _ name: String, help: String, labelNames: [String] = [], buckets: [Double] = Histogram.defaultBuckets
    ) -> Histogram {
        register(Histogram(name: name, help: help, labelNames: labelNames, buckets: buckets))
    }

    /// Registers a metric whose series are read from elsewhere at each rendering: the counts another
    /// component keeps itself (a server's refused connections), as Prometheus clients' `CounterFunc`.
    ///
    /// - Parameters:
    ///   - name: The metric name.
    ///   - help: One line saying what it is.
    ///   - type: ``MetricType/counter`` or ``MetricType/gauge``.
    ///   - labelNames: The names of its labels.
    ///   - read: Returns the series now, each as its label values (in `labelNames` order) and value;
    ///     called on the rendering thread, so it must be quick.
    package func observe(
        _ name: String, help: String, type: MetricType, labelNames: [String] = [],
        read: @escaping @Sendable () -> [MetricSample]
    ) {
        precondition(type != .histogram, "[Metrics bug] an observed metric is a counter or a gauge.")
        _ = register(ObservedMetric(name: name, help: help, type: type, labelNames: labelNames, read: read))
    }

    /// Every metric in the text exposition format, ending with a newline.
    ///
    /// - Returns: The text (`# HELP`, `# TYPE` and sample lines).
    package func render() -> String {
        let families = families.withLock { $0 }
        var text = ""
        for family in families {
            text += "# HELP \(family.name) \(MetricText.escapedHelp(family.help))\n"
            text += "# TYPE \(family.name) \(family.type.rawValue)\n"
            family.renderSamples(into: &text)
        }
        return text
    }

    /// Adds a family, refusing a name registered already (a programmer error).
    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        precondition(MetricText.isValidMetricName(family.name), "[Metrics bug] invalid metric name \(family.name).")
        for label in family.labelNames {
            precondition(
                MetricText.isValidLabelName(label) && !(family.type == .histogram && label == "le"),
                "[Metrics bug] invalid label name \(label) for \(family.name).")
        }
        families.withLock { families in
            precondition(
                !families.contains { $0.name == family.name }, "[Metrics bug] \(family.name) is registered twice.")
            families.append(family)
        }
        return family
    }
}

/// The kind of a metric, as its `# TYPE` line names it.
package enum MetricType: String, Sendable, Equatable {
    /// Only goes up.
    case counter
    /// Goes up and down.
    case gauge
    /// Cumulative buckets with a sum and a count.
    case histogram
}

/// One series of an observed metric: its label values and its value.
package struct MetricSample: Sendable, Equatable {
    /// The label values, in the order of the metric's label names.
    package var labels: [String]
    /// The value.
    package var value: Double

    /// Makes a sample.
    ///
    /// - Parameters:
    ///   - labels: The label values.
    ///   - value: The value.
    package init(labels: [String] = [], value: Double) {
        self.labels = labels
        self.value = value
    }
}

/// What the registry needs of every metric.
protocol MetricFamily: Sendable {
    /// The metric name.
    var name: String { get }
    /// The `# HELP` text, unescaped.
    var help: String { get }
    /// The `# TYPE`.
    var type: MetricType { get }
    /// The label names.
    var labelNames: [String] { get }
    /// Appends the sample lines.
    func renderSamples(into text: inout String)
}

/// A metric read by a closure at each rendering.
private struct ObservedMetric: MetricFamily {
    let name: String
    let help: String
    let type: MetricType
    let labelNames: [String]
    let read: @Sendable () -> [MetricSample]

    func renderSamples(into text: inout String) {
        let samples = read().sorted { $0.labels.lexicographicallyPrecedes($1.labels) }
        for sample in samples {
            precondition(
                sample.labels.count == labelNames.count, "[Metrics bug] \(name) takes \(labelNames.count) labels.")
            text += MetricText.sampleLine(
                name, labels: zip(labelNames, sample.labels).map { ($0, $1) }, value: sample.value)
        }
    }
}
