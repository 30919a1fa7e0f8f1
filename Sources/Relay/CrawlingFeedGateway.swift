import RelayCore
import RelayCrawler

/// The feed gateway of a relay that crawls: registration and `/feed-content/` as
/// ``RelayFeedValidator`` does them, and a feed just added (`POST /feeds/`) is crawled at once in the
/// background (``FeedCrawler/crawlSoon(_:)``), so it is searchable within seconds rather than at the next
/// pass. The answer is the reference's (`relay-api.md` §2.3), sent as soon as the feed is added. A refresh
/// (the mirror API's `webhook/refresh/`) also reads a known feed again at once
/// (``FeedCrawler/refreshSoon(_:)``).
struct CrawlingFeedGateway: RelayFeedGateway {
    /// Registers feeds and fetches `/feed-content/`.
    let validator: RelayFeedValidator
    /// Crawls the feeds just added.
    let crawler: FeedCrawler

    func register(feed: String) async -> FeedRegistrationOutcome {
        let outcome = await validator.register(feed: feed)
        if case .added(let added) = outcome { await crawler.crawlSoon(added) }
        return outcome
    }

    func refresh(feed: String) async -> FeedRegistrationOutcome {
        let outcome = await validator.register(feed: feed)
        switch outcome {
        case .added(let url), .known(let url): await crawler.refreshSoon(url)
        case .bridge, .invalid, .storageFailed: break
        }
        return outcome
    }

    func feedContent(feed: String) async -> FeedContentOutcome {
        await validator.feedContent(feed: feed)
    }
}
