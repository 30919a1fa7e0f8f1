import Metrics
import Testing

/// Histograms: cumulative buckets with inclusive bounds, `+Inf`, `_sum` and `_count`.
@Suite struct HistogramTests {
    @Test func rendersCumulativeBucketsWithInfSumAndCount() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram(
            "orgsocial_test_duration_seconds", help: "Durations.", labelNames: ["endpoint"], buckets: [0.125, 1, 0.5])
        for value in [0.0625, 0.125, 0.25, 0.75, 2.0] {
            histogram.observe(value, labels: ["/feeds/"])
        }

        #expect(
            registry.render() == """
                # HELP orgsocial_test_duration_seconds Durations.
                # TYPE orgsocial_test_duration_seconds histogram
                orgsocial_test_duration_seconds_bucket{endpoint="/feeds/",le="0.125"} 2
                orgsocial_test_duration_seconds_bucket{endpoint="/feeds/",le="0.5"} 3
                orgsocial_test_duration_seconds_bucket{endpoint="/feeds/",le="1"} 4
                orgsocial_test_duration_seconds_bucket{endpoint="/feeds/",le="+Inf"} 5
                orgsocial_test_duration_seconds_sum{endpoint="/feeds/"} 3.1875
                orgsocial_test_duration_seconds_count{endpoint="/feeds/"} 5

                """)
    }

    @Test func anUnlabelledHistogramRendersEmptyBucketsBeforeItsFirstObservation() {
        let registry = MetricsRegistry()
        _ = registry.histogram("orgsocial_test_pass_seconds", help: "Passes.", buckets: [1])

        #expect(
            registry.render().split(separator: "\n").dropFirst(2) == [
                #"orgsocial_test_pass_seconds_bucket{le="1"} 0"#, #"orgsocial_test_pass_seconds_bucket{le="+Inf"} 0"#,
                "orgsocial_test_pass_seconds_sum 0", "orgsocial_test_pass_seconds_count 0",
            ])
    }

    @Test func observesDurationsInSeconds() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("orgsocial_test_wait_seconds", help: "Waits.", buckets: [0.25])
        histogram.observe(Duration.milliseconds(250))
        histogram.observe(Duration.milliseconds(1500))

        let text = registry.render()
        #expect(text.contains(#"orgsocial_test_wait_seconds_bucket{le="0.25"} 1"#))
        #expect(text.contains("orgsocial_test_wait_seconds_sum 1.75\n"))
        #expect(histogram.count() == 2)
    }
}
