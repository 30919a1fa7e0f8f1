import Foundation
import HTTPCore
import RelayCore

/// `GET /polls/` in its three modes and `GET /polls/votes/` (`relay-api.md` §2.13, §2.14). `/polls/` always
/// carries its `meta` and `_links` (deliberate difference 4).
extension RelayReadAPI {
    /// `GET /polls/[?voter=|?feed=]`.
    func polls(_ parameters: RelayParameters, now: Date) async throws -> RelayJSONReply {
        if let voter = parameters.stripped("voter"), !voter.isEmpty {
            return try await pollsVoted(by: voter)
        }
        if let feed = parameters.stripped("feed"), !feed.isEmpty {
            return try await polls(of: feed, now: now)
        }
        let list = try await readModel.polls()
        return RelayJSONEnvelope.success(
            RelayJSONEnvelope.strings(list), meta: [("total", .int(list.count))],
            links: [
                ("self", RelayJSONEnvelope.link("/polls/")),
                ("votes", RelayJSONEnvelope.link("/polls/votes/?post={post_url}", templated: true)),
            ])
    }

    /// `?feed=`: the feed's polls with their options.
    private func polls(of feed: String, now: Date) async throws -> RelayJSONReply {
        guard let polls = try await readModel.polls(of: feed) else { return notFound(Self.profileNotFound) }
        let data: [JSONValue] = polls.map { poll in
            .object([
                ("id", .string(poll.post)), ("post_id", .string(poll.postID)), ("content", .string(poll.content)),
                ("poll_end", .string(RelayTimeFormat.isoformat(poll.pollEnd))),
                ("is_active", .bool(poll.pollEnd > now)),
                ("options", RelayJSONEnvelope.strings(poll.options)),
                ("created_at", .string(RelayTimeFormat.isoformat(poll.createdAt))),
            ])
        }
        return RelayJSONEnvelope.success(.array(data), meta: [("feed", .string(feed)), ("total", .int(data.count))])
    }

    /// `?voter=`: the votes the feed cast, newest vote first.
    private func pollsVoted(by voter: String) async throws -> RelayJSONReply {
        guard let votes = try await readModel.votes(castBy: voter) else {
            return notFound("Voter profile not found for the given feed URL")
        }
        let data: [JSONValue] = votes.map { vote in
            .object([
                ("vote_post_id", .string(vote.votePost)), ("poll_id", .string(vote.poll)),
                ("poll_author", .string(vote.pollAuthor)), ("poll_content", .string(vote.pollContent)),
                ("selected_option", .string(vote.option)),
                ("voted_at", .string(RelayTimeFormat.isoformat(vote.votedAt))),
            ])
        }
        return RelayJSONEnvelope.success(.array(data), meta: [("voter", .string(voter)), ("total", .int(data.count))])
    }

    /// `GET /polls/votes/?post=`: the votes per option, newest vote first; unknown options dropped.
    func pollVotes(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try requirePost(parameters)
        guard let tally = try await readModel.tally(of: key) else { return notFound("Poll not found") }
        guard tally.isPoll else {
            return RelayJSONEnvelope.error("Post is not a poll", status: .badRequest)
        }
        let data: [JSONValue] = tally.options.map { option in
            .object([("option", .string(option.option)), ("votes", RelayJSONEnvelope.strings(option.votes))])
        }
        let total = tally.options.reduce(0) { $0 + $1.votes.count }
        return RelayJSONEnvelope.success(
            .array(data), meta: [("poll", .string(tally.poll)), ("total_votes", .int(total))],
            links: [selfLink("/polls/votes/", "post", tally.poll), ("polls", RelayJSONEnvelope.link("/polls/"))])
    }
}
