import Foundation
import HTTPCore
import RelayCore

/// The bridge endpoints (`relay-api.md` §2.20): `/bridge/`, the two listings, and the virtual feeds
/// `/bridge/activitypub/@user@instance/` and `/bridge/rss/?url=`, which answer `text/plain` Org with
/// validators of their own (an `ETag` of the file, `Last-Modified` when it last changed) and `304`s.
struct RelayBridgeAPI: Sendable {
    /// The bridges.
    let gateway: any RelayBridgeGateway

    /// What a bridge endpoint answered: a response, and for a virtual feed its own validators.
    struct Answer {
        /// The response (before validators and common headers).
        var response: HTTPResponse
        /// The virtual feed's validators, for a `200` text answer.
        var validators: RelayValidators?
    }

    /// `GET /bridge/`.
    static let index = RelayJSONEnvelope.success(
        .object([
            (
                "description",
                "Bridges expose external accounts as virtual social.org feeds that can be followed with #+FOLLOW:"
            )
        ]),
        links: [
            ("self", RelayJSONEnvelope.link("/bridge/")),
            ("activitypub-feed", RelayJSONEnvelope.link("/bridge/activitypub/@{user}@{instance}/", templated: true)),
            ("activitypub-list", RelayJSONEnvelope.link("/bridge/activitypub/")),
            ("rss-feed", RelayJSONEnvelope.link("/bridge/rss/?url={feed_url}", templated: true)),
            ("rss-list", RelayJSONEnvelope.link("/bridge/rss/")),
        ])

    /// `GET /bridge/activitypub/` or `GET /bridge/rss/` without `url`.
    func listing(_ kind: RelayBridgeKind) async -> RelayJSONReply? {
        guard let entries = await gateway.listing(kind) else { return nil }
        let sourceKey = kind == .activityPub ? "handle" : "url"
        let data = JSONValue.array(
            entries.map { .object([(sourceKey, .string($0.source)), ("feed", .string($0.feed))]) })
        let path = kind == .activityPub ? "/bridge/activitypub/" : "/bridge/rss/"
        return RelayJSONEnvelope.success(data, links: [("self", RelayJSONEnvelope.link(path))])
    }

    /// `GET /bridge/activitypub/<requested>/`: 400 for an invalid handle, 301 to the canonical spelling,
    /// else the virtual feed (502 when it cannot be fetched).
    func activityPub(requested: String, indent: Int?) async -> Answer {
        guard let handle = gateway.canonicalHandle(requested) else {
            return Answer(
                response: RelayResponses.envelopeError(
                    "Invalid handle. Expected format: @user@instance", status: .badRequest, indent: indent))
        }
        guard requested == "@" + handle else {
            return Answer(response: RelayResponses.appendSlash(location: "/bridge/activitypub/@\(handle)/"))
        }
        return answer(
            await gateway.activityPubFeed(handle: handle), prefix: "Could not fetch ActivityPub account: ",
            invalid: "Invalid handle. Expected format: @user@instance", indent: indent)
    }

    /// `GET /bridge/rss/?url=<source>`.
    func rss(source: String, indent: Int?) async -> Answer {
        answer(
            await gateway.rssFeed(url: source), prefix: "Could not fetch RSS feed: ",
            invalid: "Invalid url parameter. Expected an http(s) feed URL", indent: indent)
    }

    /// The response of a virtual feed outcome.
    private func answer(_ outcome: RelayBridgeOutcome, prefix: String, invalid: String, indent: Int?) -> Answer {
        switch outcome {
        case .feed(let content, let changedAt):
            let response = HTTPResponse(
                status: .ok, headers: ["Content-Type": "text/plain; charset=utf-8"], bytes: Array(content.utf8))
            let validators = RelayValidators(
                stamp: RelayChangeStamp(generation: content.utf8.count, changedAt: changedAt))
            return Answer(response: response, validators: validators)
        case .invalidURL:
            return Answer(response: RelayResponses.envelopeError(invalid, status: .badRequest, indent: indent))
        case .fetchFailed(let reason):
            return Answer(
                response: RelayResponses.envelopeError(prefix + reason, status: HTTPStatus(code: 502), indent: indent))
        case .storageFailed:
            return Answer(response: RelayResponses.serverErrorPage)
        }
    }
}
