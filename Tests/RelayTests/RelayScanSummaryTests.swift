import Foundation
import Relay
import RelayCore
import Testing

@testable import OrgSocialCLI

/// `relay scan`'s summary: the crawl time leaves out the time discovery took (peer relays, new follows
/// and their DNS lookups), which is shown on its own.
struct RelayScanSummaryTests {
    @Test func theCrawlTimeLeavesOutDiscovery() {
        var report = RelayScanReport()
        report.feeds = 2
        report.duration = .milliseconds(3500)
        report.discoveryDuration = .milliseconds(3000)
        report.discovered = 1
        let text = RelayScanCommand.text(RelayPassSummary(report: report, finishedAt: Date()))
        #expect(text.hasPrefix("Crawled 2 feeds in 0.50 s: "))
        #expect(text.contains("Feeds: 1 discovered (discovery took 3.00 s), 0 dropped"))
    }
}
