import Foundation
import OrgSocial
import OrgSocialClient
package import RelayCore

/// The relay's ``RelayFeedGateway``: feed registration with the reference's validation fetch
/// (`relay-api.md` §2.3) and the live `/feed-content/` fetch (§2.16), both behind the SSRF guard.
///
/// The crawler validates the feeds it discovers (follows, peers) with the same check.
package struct RelayFeedValidator: RelayFeedGateway {
    /// The crawl list.
    let store: any RelayCrawlStore
    /// Limits, timeouts, the transport, the log.
    let configuration: FeedCrawler.Configuration
    /// The SSRF guard every request passes.
    let addressGuard: AddressGuard
    /// Fetches registrations and discovered feeds (5 s idle timeout).
    let validationFetcher: FeedFetcher
    /// Fetches `/feed-content/` and peer lists (one 10 s timeout).
    let liveFetcher: FeedFetcher
    /// The `/feed-content/` fetches in flight and their recent outcomes, shared by the copies of this value.
    let liveContent = FeedContentFetches()

    /// Makes the gateway.
    /// - Parameters:
    ///   - store: the crawl list.
    ///   - configuration: the crawler's configuration (transport, limits, SSRF setting, log).
    package init(store: any RelayCrawlStore, configuration: FeedCrawler.Configuration) {
        self.store = store
        self.configuration = configuration
        addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
        validationFetcher = FeedFetcher(
            transport: configuration.transport, configuration: configuration.validationFetcherConfiguration)
        liveFetcher = FeedFetcher(
            transport: configuration.transport, configuration: configuration.liveFetcherConfiguration)
    }

    // MARK: - Registration

    /// Registers a feed (`relay-api.md` §2.3 steps 2–5): a bridge URL is refused; a URL with a control
    /// character or a query is invalid; an already known one is echoed; when the validation fetch fails it
    /// is invalid; else it is added. The URL is stored and looked up in its canonical spelling
    /// (``FeedURL/registrable(_:)``), which `data.feed` echoes (a canonical URL comes back unchanged).
    /// - Parameter submitted: the submitted URL, already stripped and non-blank.
    /// - Returns: what was done.
    package func register(feed submitted: String) async -> FeedRegistrationOutcome {
        if RelayFeedText.isBridgeURL(submitted) {
            return .bridge
        }
        let feed: String
        do {
            feed = try FeedURL.registrable(submitted)
        } catch {
            configuration.log("relay register refused feed=\(submitted.debugDescription) reason=\(error)")
            return .invalid(reason: "\(Self.notFetched)\(error)")
        }
        do {
            if try await store.containsFeed(feed) { return .known(feed: feed) }
        } catch {
            configuration.log("relay register failed feed=\(feed) reason=\(Self.describe(error))")
            return .storageFailed
        }
        if let reason = await validationFailure(for: feed) {
            configuration.log("relay register refused feed=\(feed) reason=\(reason)")
            return .invalid(reason: reason)
        }
        do {
            guard try await store.addFeed(feed, now: Date()) else { return .known(feed: feed) }
        } catch {
            configuration.log("relay register failed feed=\(feed) reason=\(Self.describe(error))")
            return .storageFailed
        }
        configuration.log("relay register added feed=\(feed)")
        return .added(feed: feed)
    }

    /// The reference's validation of a feed URL (§2.3 step 4), plus the SSRF guard: a GET following
    /// redirects; the answer must be 200, strict UTF-8, and have a non-blank `#+TITLE:`, `#+NICK:` or
    /// `#+DESCRIPTION:` line.
    /// - Parameter feed: the URL string.
    /// - Returns: `nil` when valid, else the reason that follows `Invalid Org Social feed: `.
    package func validationFailure(for feed: String) async -> String? {
        guard let url = Self.httpURL(feed) else {
            return Self.notFetched + (RelayCrawlerError.unsupportedURL(url: feed).errorDescription ?? feed)
        }
        let body: [UInt8]
        do {
            let result = try await validationFetcher.fetch(
                url, validators: nil, checkHop: { [addressGuard] in try await addressGuard.check($0) })
            guard case .fresh(let bytes) = result.outcome else {
                return "URL returned status code 304"
            }
            body = bytes
        } catch OrgSocialClientError.fetchFailed(_, let statusCode) {
            return "URL returned status code \(statusCode)"
        } catch let error where Self.describe(error).hasPrefix(RelayCrawlerError.addressRefusalPrefix) {
            // This relay's address policy refused it before any request: nothing was fetched.
            return Self.notFetched + Self.describe(error)
        } catch {
            return "Failed to fetch URL: \(Self.describe(error))"
        }
        switch RelayFeedText.decode(body) {
        case .failure(let invalid):
            return
                "Validation error: \(RelayCrawlerError.invalidUTF8(url: feed, offset: invalid.offset).localizedDescription)"
        case .success(let text):
            guard RelayFeedText.hasBasicMetadata(text) else {
                return "Content does not appear to be a valid Org Social file (missing basic metadata)"
            }
            return nil
        }
    }

    // MARK: - Helpers

    /// An absolute http(s) URL with a host, in its canonical spelling (``FeedURL/canonical(_:)``: the
    /// scheme's case never matters, `HTTP://` is fetched as `http://`), or `nil`.
    static func httpURL(_ text: String) -> URL? {
        guard let canonical = try? FeedURL.canonical(text), let url = URL(string: canonical),
            let scheme = url.scheme, scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    /// An error's human description.
    /// How a reason starts when this relay refused the URL itself (its form, its scheme, its address) and
    /// sent no request, unlike the reference's `Failed to fetch URL: ` for a request that failed.
    static let notFetched = "Not fetched: "

    static func describe(_ error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
