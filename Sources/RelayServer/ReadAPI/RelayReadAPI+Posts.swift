import Foundation
import HTTPCore
import RelayCore

/// The endpoints keyed by a post: `/boosts/`, `/interactions/`, `/replies/` (`relay-api.md` §2.8–2.10).
extension RelayReadAPI {
    /// `GET /boosts/?post=`: posts whose `INCLUDE` is exactly `post`, newest first.
    func boosts(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try requirePost(parameters)
        guard let found = try await readModel.boosts(of: key) else { return notFound("Post not found") }
        return RelayJSONEnvelope.success(
            RelayJSONEnvelope.strings(found.boosts),
            meta: [("post", .string(found.post)), ("total", .int(found.boosts.count))],
            links: [selfLink("/boosts/", "post", found.post)])
    }

    /// `GET /interactions/?post=`: reactions (no `parent`), replies and boosts of one post, and its parent chain.
    func interactions(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try requirePost(parameters)
        guard let found = try await readModel.interactions(with: key) else { return notFound("Post not found") }
        let reactions: [JSONValue] = found.reactions.map {
            .object([("post", .string($0.post)), ("emoji", .string($0.emoji))])
        }
        return RelayJSONEnvelope.success(
            .object([
                ("reactions", .array(reactions)), ("replies", RelayJSONEnvelope.strings(found.replies)),
                ("boosts", RelayJSONEnvelope.strings(found.boosts)),
            ]),
            meta: [
                ("post", .string(found.post)), ("total_reactions", .int(reactions.count)),
                ("total_replies", .int(found.replies.count)), ("total_boosts", .int(found.boosts.count)),
                ("parentChain", RelayJSONEnvelope.strings(found.parentChain)),
            ],
            links: [
                selfLink("/interactions/", "post", found.post),
                ("reactions", RelayJSONEnvelope.link("/reactions/?feed=\(RelayPercentEncoding.encode(found.feed))")),
                ("replies", RelayJSONEnvelope.link("/replies/?post=\(RelayPercentEncoding.encode(found.post))")),
                ("boosts", RelayJSONEnvelope.link("/boosts/?post=\(RelayPercentEncoding.encode(found.post))")),
            ])
    }

    /// `GET /replies/?post=`: the thread below a post, oldest first at every level; moods grouped.
    func replies(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try requirePost(parameters)
        guard let thread = try await readModel.thread(below: key) else { return notFound("Post not found") }
        return RelayJSONEnvelope.success(
            .array(thread.replies.map(Self.node)),
            meta: [
                ("parent", .string(thread.post)), ("moods", Self.moods(thread.moods)),
                ("parentChain", RelayJSONEnvelope.strings(thread.parentChain)),
            ],
            links: [selfLink("/replies/", "post", thread.post)])
    }

    /// One node of `/replies/`: `{post, children, moods}`.
    static func node(_ reply: ThreadReply) -> JSONValue {
        .object([
            ("post", .string(reply.post)), ("children", .array(reply.replies.map(node))), ("moods", moods(reply.moods)),
        ])
    }

    /// The `moods` of a node: `[{emoji, posts}]`.
    static func moods(_ groups: [MoodGroup]) -> JSONValue {
        .array(groups.map { .object([("emoji", .string($0.emoji)), ("posts", RelayJSONEnvelope.strings($0.posts))]) })
    }
}
