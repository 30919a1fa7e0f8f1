import HTTPCore
import RelayCore
import RelayCrawler
import RelayServer

/// A registration's outcome as the server writes it, so the crawler's tests compare the same envelopes.
extension FeedRegistrationOutcome {
    /// The status of the reply.
    var status: HTTPStatus { RelayGatewayReplies.registration(self).status }
    /// The envelope of the reply.
    var body: JSONValue { RelayGatewayReplies.registration(self).body }
}

extension RelayFeedValidator {
    /// The `/feed-content/` reply for `feed`, as the server writes it.
    func feedContentReply(feed: String) async -> RelayJSONReply {
        RelayGatewayReplies.feedContent(await feedContent(feed: feed), feed: feed)
    }
}
