import Foundation
import HTTPServer
import OrgSocialClient
package import RelayCore

extension RelayFeedValidator {
    /// Answers `/feed-content/?feed=` (`relay-api.md` §2.16): 404 without a profile, else the file fetched
    /// live (one 10 s timeout, not cached) as `data.content`, or a 502 with the reference's messages.
    /// - Parameter feed: the stripped, non-blank feed URL.
    /// - Returns: the reply.
    package func feedContent(feed: String) async -> RelayJSONReply {
        do {
            guard try await store.hasProfile(feed) else {
                return RelayReplies.error("Feed not found in relay", status: .notFound)
            }
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return RelayReplies.error("Failed to fetch feed content", status: .internalServerError)
        }
        guard let url = Self.httpURL(feed) else {
            return RelayReplies.error("Failed to fetch feed content", status: .badGateway)
        }
        let body: [UInt8]
        do {
            let result = try await liveFetcher.fetch(
                url, validators: nil, checkHop: { [addressGuard] in try await addressGuard.check($0) })
            guard case .fresh(let bytes) = result.outcome else {
                return RelayReplies.error("Failed to fetch feed content", status: .badGateway)
            }
            body = bytes
        } catch {
            configuration.log("relay feed-content failed feed=\(feed) reason=\(Self.describe(error))")
            return RelayReplies.error(Self.feedContentMessage(for: error), status: .badGateway)
        }
        guard case .success(let text) = RelayFeedText.decode(body) else {
            return RelayReplies.error("Failed to fetch feed content", status: .badGateway)
        }
        let link: JSONValue = .object([
            ("href", .string("/feed-content/?feed=\(RelayPercentEncoding.encode(feed))")), ("method", "GET"),
        ])
        return RelayReplies.success(.object([("content", .string(text))]), links: .object([("self", link)]))
    }

    /// The reference's 502 message for a failed live fetch.
    static func feedContentMessage(for error: any Error) -> String {
        switch error {
        case OrgSocialClientError.timedOut:
            return "Request timeout: Feed server did not respond in time"
        case OrgSocialClientError.networkError(_, let message) where message.contains("in time"):
            return "Request timeout: Feed server did not respond in time"
        case OrgSocialClientError.networkError, RelayCrawlerError.refused, RelayCrawlerError.unresolvableHost:
            return "Connection error: Could not reach feed server"
        case OrgSocialClientError.fetchFailed(let url, let statusCode) where statusCode >= 400:
            let kind = statusCode < 500 ? "Client" : "Server"
            let reason = HTTPStatus(code: statusCode).reasonPhrase
            return "HTTP error: \(statusCode) \(kind) Error: \(reason) for url: \(url)"
        default:
            return "Failed to fetch feed content"
        }
    }
}
