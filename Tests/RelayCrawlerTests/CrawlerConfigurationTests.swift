import Foundation
import RelayCore
import RelayCrawler
import Testing

/// Configuration, relay lists, back-off arithmetic and the pass log line.
struct CrawlerConfigurationTests {
    @Test func peerListDropsTheSiteDomainAddsHTTPAndTrimsSlashes() {
        let configuration = FeedCrawler.Configuration(
            peerRelays: [
                "https://relay.org-social.org", "orgs-relay.adsan.dev/", "https://my.relay.example/", "",
                "my.relay.example", "http://other.example//", "https://relay.org-social.org",
            ],
            siteDomain: "my.relay.example")
        #expect(
            configuration.peerRelayURLs == [
                "https://relay.org-social.org", "http://orgs-relay.adsan.dev", "http://other.example",
            ])
    }

    @Test func relayListFilesSkipBlanksAndComments() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("relays-\(UUID().uuidString).txt")
        try "# public relays\nhttps://relay.org-social.org\n\n  https://orgs-relay.adsan.dev  \n   # off\n"
            .write(to: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: path) }
        #expect(
            try FeedCrawler.loadRelayList(path: path.path)
                == ["https://relay.org-social.org", "https://orgs-relay.adsan.dev"])
        #expect(throws: RelayCrawlerError.self) { try FeedCrawler.loadRelayList(path: path.path + ".missing") }
        // /dev/null is how an operator says "no peer relays".
        #expect(try FeedCrawler.loadRelayList(path: "/dev/null").isEmpty)
    }

    @Test func backoffDoublesFromTheBaseUpToTheCap() {
        let base = Duration.seconds(60)
        let cap = Duration.seconds(6 * 3600)
        let delays = (1...12).map { FeedCrawler.backoffDelay(failures: $0, base: base, cap: cap) }
        #expect(delays.prefix(5) == [.seconds(60), .seconds(120), .seconds(240), .seconds(480), .seconds(960)])
        #expect(delays[8] == .seconds(15_360))
        #expect(delays[9] == cap)
        #expect(delays[11] == cap)
        #expect(FeedCrawler.backoffDelay(failures: 10_000, base: base, cap: cap) == cap)
        for _ in 0..<20 {
            let jittered = FeedCrawler.backoffDelay(failures: 2, base: base, cap: cap, jitter: 0.1)
            #expect(jittered >= .seconds(120) && jittered <= .seconds(132))
        }
    }

    @Test func thePassLogLineIsStructured() {
        var report = RelayScanReport()
        report.feeds = 3
        report.fetched = 1
        report.notModified = 1
        report.failed = 1
        report.postsAdded = 2
        report.bytesDownloaded = 512
        report.duration = .milliseconds(1234)
        #expect(
            FeedCrawler.logLine(report)
                == "relay pass feeds=3 fetched=1 not_modified=1 failed=1 skipped=0 added=2 changed=0 removed=0 "
                + "discovered=0 dropped=0 bytes=512 duration_ms=1234")
    }
}
