import HTTPCore
import RelayCore

// The writes of the relay's API: a feed registered (`POST /feeds/`), and the mirror API's refresh, which
// registers the same way.
extension RelayResponder {
    /// `POST /feeds/` (§2.3 step 1 here, steps 2–5 in the gateway).
    func register(_ request: HTTPRequest, indent: Int?) async -> HTTPResponse {
        let feed: String
        switch RelayRegistrationForm(request) {
        case .rejected(let status, let detail):
            return RelayResponses.detail(detail, status: status, indent: indent)
        case .notAString:
            return RelayResponses.envelopeError("Feed URL must be a string", status: .badRequest, indent: indent)
        case .missing:
            return RelayResponses.envelopeError("Feed URL is required", status: .badRequest, indent: indent)
        case .feed(let submitted):
            feed = submitted.pythonStripped
        }
        guard !feed.isEmpty else {
            return RelayResponses.envelopeError("Feed URL is required", status: .badRequest, indent: indent)
        }
        let reply = RelayGatewayReplies.registration(await gateway.register(feed: feed))
        // Read the stamp after the write, so the next `GET /feeds/` is not answered from the old cache.
        let validators = await tracker.refresh(from: readModel, log: configuration.log)
        let response = RelayResponses.json(reply.body, status: reply.status, indent: indent)
        return finalize(response, validators: validators, request: request, conditional: false)
    }

    /// `POST /api/webhook/refresh/` with `{"feed": URL}` (`mirror-api.md` §3.13): the same registration as
    /// `POST /feeds/` (address guard, validation fetch, the address's rate), answered `202 {"feed": URL}` or
    /// with a problem; a crawling relay then reads the feed again within seconds, known or new.
    func refresh(_ request: HTTPRequest) async -> HTTPResponse {
        let submitted: String
        switch RelayRegistrationForm(request) {
        case .rejected(let status, let detail):
            return Self.problem(MirrorProblem(title: "Invalid request", detail: detail, status: status))
        case .notAString, .missing:
            return Self.problem(
                MirrorProblem(title: "Invalid request", detail: "feed must be a feed URL.", status: .badRequest))
        case .feed(let feed):
            submitted = feed.pythonStripped
        }
        guard !submitted.isEmpty else {
            return Self.problem(
                MirrorProblem(title: "Invalid request", detail: "feed must be a feed URL.", status: .badRequest))
        }
        let reply = MirrorAPI.refreshReply(await gateway.refresh(feed: submitted))
        _ = await tracker.refresh(from: readModel, log: configuration.log)
        return RelayResponses.json(reply.body, status: reply.status, indent: nil)
    }

    /// A mirror problem as a response.
    static func problem(_ problem: MirrorProblem) -> HTTPResponse {
        RelayResponses.json(problem.reply.body, status: problem.reply.status, indent: nil)
    }
}
