import Metrics
import Synchronization
import TestSupport
import Testing

/// The registry's text: HELP and TYPE lines, label escaping, counters and gauges, thread safety.
@Suite struct MetricsRegistryTests {
    @Test func rendersHelpTypeAndSamplesInRegistrationOrder() {
        let registry = MetricsRegistry()
        let requests = registry.counter(
            "orgsocial_test_requests_total", help: "Requests answered.", labelNames: ["endpoint", "status"])
        let depth = registry.gauge("orgsocial_test_queue_depth", help: "Items waiting.")
        requests.increment(labels: ["/feeds/", "200"])
        requests.increment(by: 2, labels: ["/feeds/", "200"])
        requests.increment(labels: ["/", "404"])
        depth.set(7)

        #expect(
            registry.render() == """
                # HELP orgsocial_test_requests_total Requests answered.
                # TYPE orgsocial_test_requests_total counter
                orgsocial_test_requests_total{endpoint="/",status="404"} 1
                orgsocial_test_requests_total{endpoint="/feeds/",status="200"} 3
                # HELP orgsocial_test_queue_depth Items waiting.
                # TYPE orgsocial_test_queue_depth gauge
                orgsocial_test_queue_depth 7

                """)
    }

    @Test func unlabelledMetricsStartAtZeroAndLabelledOnesWithoutSeries() {
        let registry = MetricsRegistry()
        _ = registry.counter("orgsocial_test_events_total", help: "Events.")
        _ = registry.counter("orgsocial_test_results_total", help: "Results.", labelNames: ["result"])

        #expect(
            registry.render() == """
                # HELP orgsocial_test_events_total Events.
                # TYPE orgsocial_test_events_total counter
                orgsocial_test_events_total 0
                # HELP orgsocial_test_results_total Results.
                # TYPE orgsocial_test_results_total counter

                """)
    }

    @Test func escapesBackslashQuoteAndNewlineInLabelValuesAndHelp() {
        let registry = MetricsRegistry()
        let counter = registry.counter(
            "orgsocial_test_paths_total", help: "Paths, with a \\ and a\nsecond line.", labelNames: ["path"])
        counter.increment(labels: ["C:\\feeds \"quoted\"\nnext"])

        let lines = registry.render().split(separator: "\n")
        #expect(lines[0] == #"# HELP orgsocial_test_paths_total Paths, with a \\ and a\nsecond line."#)
        #expect(lines[2] == #"orgsocial_test_paths_total{path="C:\\feeds \"quoted\"\nnext"} 1"#)
    }

    @Test func writesWholeNumbersWithoutFractionAndSpecialValuesAsPrometheusDoes() {
        #expect(MetricText.number(3) == "3")
        #expect(MetricText.number(-2) == "-2")
        #expect(MetricText.number(0.25) == "0.25")
        #expect(MetricText.number(.infinity) == "+Inf")
        #expect(MetricText.number(-.infinity) == "-Inf")
        #expect(MetricText.number(.nan) == "NaN")
        #expect(MetricText.number(1e20) == "1e+20")
    }

    @Test func gaugesGoDownAndDropSeries() {
        let registry = MetricsRegistry()
        let gauge = registry.gauge("orgsocial_test_open", help: "Open things.", labelNames: ["kind"])
        gauge.set(5, labels: ["stream"])
        gauge.add(-2, labels: ["stream"])
        gauge.set(1, labels: ["socket"])
        gauge.remove(labels: ["socket"])

        #expect(gauge.value(labels: ["stream"]) == 3)
        #expect(gauge.value(labels: ["socket"]) == nil)
        #expect(registry.render().hasSuffix("orgsocial_test_open{kind=\"stream\"} 3\n"))
    }

    @Test func observedMetricsAreReadAtEachRendering() {
        let registry = MetricsRegistry()
        let source = Counting()
        registry.observe("orgsocial_test_refused_total", help: "Refused.", type: .counter, labelNames: ["limit"]) {
            [MetricSample(labels: ["streams"], value: Double(source.next()))]
        }

        #expect(registry.render().contains("orgsocial_test_refused_total{limit=\"streams\"} 1\n"))
        #expect(registry.render().contains("orgsocial_test_refused_total{limit=\"streams\"} 2\n"))
    }

    @Test func countsEveryIncrementFromManyTasksAtOnce() async {
        let registry = MetricsRegistry()
        let counter = registry.counter("orgsocial_test_hits_total", help: "Hits.", labelNames: ["worker"])
        let histogram = registry.histogram("orgsocial_test_latency_seconds", help: "Latency.")
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for index in 0..<1000 {
                        counter.increment(labels: [String(worker % 2)])
                        histogram.observe(Double(index) / 1000)
                    }
                }
            }
        }

        #expect(counter.value(labels: ["0"]) == 4000)
        #expect(counter.value(labels: ["1"]) == 4000)
        #expect(histogram.count() == 8000)
    }

    @Test(.enabled(if: Promtool.isAvailable, "promtool is not installed (apt-get install prometheus)"))
    func promtoolAcceptsEveryKindOfMetric() throws {
        let registry = MetricsRegistry()
        registry.counter("orgsocial_test_requests_total", help: "Requests.", labelNames: ["endpoint", "status"])
            .increment(labels: ["/a \"b\"", "200"])
        registry.gauge("orgsocial_test_size_bytes", help: "Size.").set(1024)
        registry.histogram("orgsocial_test_duration_seconds", help: "Duration.", labelNames: ["endpoint"])
            .observe(0.3, labels: ["/"])
        registry.observe("orgsocial_test_refused_total", help: "Refused.", type: .counter, labelNames: ["limit"]) {
            [MetricSample(labels: ["streams"], value: 2)]
        }

        let result = try Promtool.checkMetrics(registry.render())
        #expect(result.status == 0, "\(result.output)")
    }
}

/// A number that goes up by one at each read.
private final class Counting: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
