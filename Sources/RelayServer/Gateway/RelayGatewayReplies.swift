import HTTPCore
package import RelayCore

/// The envelopes of registration (`POST /feeds/`, `relay-api.md` §2.3) and `/feed-content/` (§2.16),
/// written from what the feed gateway did.
package enum RelayGatewayReplies {
    /// The reply to a registration: 201 added, 200 known, 400 refused, 500 storage failure.
    ///
    /// - Parameter outcome: What the gateway did.
    /// - Returns: The reply.
    package static func registration(_ outcome: FeedRegistrationOutcome) -> RelayJSONReply {
        switch outcome {
        case .known(let feed):
            return RelayJSONEnvelope.success(.object([("feed", .string(feed))]))
        case .added(let feed):
            return RelayJSONEnvelope.success(.object([("feed", .string(feed))]), status: .created)
        case .bridge, .invalid, .storageFailed:
            let status: HTTPStatus = outcome == .storageFailed ? .internalServerError : .badRequest
            return gatewayError(errorMessage(outcome) ?? "", status: status)
        }
    }

    /// The error string of a refused or failed registration, `nil` when the feed is in the crawl list.
    ///
    /// - Parameter outcome: What the gateway did.
    /// - Returns: The message, e.g. `Invalid Org Social feed: URL returned status code 404`.
    package static func errorMessage(_ outcome: FeedRegistrationOutcome) -> String? {
        switch outcome {
        case .known, .added: nil
        case .bridge: "Bridge virtual feeds cannot be registered"
        case .invalid(let reason): "Invalid Org Social feed: \(reason)"
        case .storageFailed: "Failed to add feed to database"
        }
    }

    /// The reply to `/feed-content/?feed=`: the content with its `self` link, 404, 500 or a 502 with the
    /// reference's messages.
    ///
    /// - Parameters:
    ///   - outcome: What the gateway found.
    ///   - feed: The feed asked for, as submitted (stripped), for the `self` link.
    /// - Returns: The reply.
    package static func feedContent(_ outcome: FeedContentOutcome, feed: String) -> RelayJSONReply {
        switch outcome {
        case .content(let content):
            let link = RelayJSONEnvelope.link("/feed-content/?feed=\(RelayPercentEncoding.encode(feed))")
            return RelayJSONEnvelope.success(.object([("content", .string(content))]), links: [("self", link)])
        case .notFound:
            return gatewayError("Feed not found in relay", status: .notFound)
        case .storageFailed:
            return gatewayError("Failed to fetch feed content", status: .internalServerError)
        case .fetchFailed(let failure):
            return gatewayError(message(for: failure), status: .badGateway)
        }
    }

    /// The reference's 502 message for a failed live fetch.
    ///
    /// - Parameter failure: Why the fetch failed.
    /// - Returns: The envelope's error string.
    package static func message(for failure: FeedFetchFailure) -> String {
        switch failure {
        case .timedOut:
            return "Request timeout: Feed server did not respond in time"
        case .unreachable:
            return "Connection error: Could not reach feed server"
        case .httpError(let statusCode, let url):
            let kind = statusCode < 500 ? "Client" : "Server"
            let reason = HTTPStatus(code: statusCode).reasonPhrase
            return "HTTP error: \(statusCode) \(kind) Error: \(reason) for url: \(url)"
        case .failed:
            return "Failed to fetch feed content"
        }
    }

    /// An error envelope with `data: null`.
    private static func gatewayError(_ message: String, status: HTTPStatus) -> RelayJSONReply {
        RelayJSONEnvelope.error(message, status: status)
    }
}
