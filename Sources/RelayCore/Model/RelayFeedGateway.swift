/// The two endpoints that reach out to a feed's server while answering a request: registration
/// (`POST /feeds/`, `relay-api.md` §2.3) and `/feed-content/` (§2.16). The crawler module implements it
/// (validation fetch, SSRF guard); the HTTP layer parses the request and calls it.
package protocol RelayFeedGateway: Sendable {
    /// Registers a feed: `feed` is the submitted value, already stripped and non-blank. Does §2.3 steps 2–5
    /// (bridge marker → 400, known → 200, validation fetch → 400 `Invalid Org Social feed: …`, added → 201),
    /// plus the SSRF refusal, with the reference's envelopes.
    func register(feed: String) async -> RelayJSONReply

    /// Answers `/feed-content/?feed=` for a stripped, non-blank `feed` (404 when there is no profile,
    /// live fetch, 502 messages of §2.16).
    func feedContent(feed: String) async -> RelayJSONReply
}
