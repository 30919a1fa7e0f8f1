import Foundation
import HTTPClient
import OrgSocial
import OrgSocialClient

/// A feed fetcher over CurlTransport with fast test limits and a cache in `cache` (none when `nil`).
func makeFetcher(
    cache: URL? = nil, maximumBodyBytes: Int = 10 * 1024 * 1024, perHost: Int = 4, global: Int = 16,
    totalTimeout: Duration = .seconds(5)
) -> FeedFetcher {
    FeedFetcher(
        transport: CurlTransport(timeout: .seconds(5)),
        configuration: FeedFetcher.Configuration(
            cacheDirectory: cache, maximumBodyBytes: maximumBodyBytes, connectTimeout: .seconds(5),
            totalTimeout: totalTimeout, maxConcurrentDownloads: global, maxConcurrentDownloadsPerHost: perHost,
            maxRetryDelay: .milliseconds(300), defaultRetryDelay: .milliseconds(50)))
}
