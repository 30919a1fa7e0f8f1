import Foundation
import HTTPCore
import RelayCore

/// The mirror API's answers about one post (`mirror-api.md` §3.5–3.8): its thread, its interactions, the
/// post itself and a poll's votes, each a bare object, from the relay API's own questions (`/replies/`,
/// `/interactions/`, `/polls/votes/`) with the posts behind their URLs.
extension MirrorAPI {
    /// `GET /api/thread/?post=`: `{"focus", "thread"}`, the tree from the post's oldest indexed ancestor
    /// down the parent chain to the post, then every reply below it, oldest first at each level.
    /// Mood-only replies are left out of the tree (the engine drops them; `interactions/` lists them).
    func thread(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try Self.requirePost(parameters)
        guard let thread = try await readModel.thread(below: key) else { throw Self.postNotFound(key) }
        var urls = thread.parentChain + [thread.post]
        func collect(_ replies: [ThreadReply]) {
            for reply in replies {
                urls.append(reply.post)
                collect(reply.replies)
            }
        }
        collect(thread.replies)
        let posts = try await postsByURL(urls)
        func node(_ url: String, _ replies: [JSONValue]) -> JSONValue? {
            posts[url].map { .object([("post", MirrorJSON.post($0)), ("replies", .array(replies))]) }
        }
        func subtree(_ reply: ThreadReply) -> JSONValue? {
            node(reply.post, reply.replies.compactMap(subtree))
        }
        guard var tree = node(thread.post, thread.replies.compactMap(subtree)) else { throw Self.postNotFound(key) }
        // Up the chain to the oldest ancestor the index holds (the chain's first one may be unknown).
        for ancestor in thread.parentChain.reversed() {
            guard let parent = node(ancestor, [tree]) else { break }
            tree = parent
        }
        return Self.bare(.object([("focus", .string(thread.post)), ("thread", tree)]))
    }

    /// `GET /api/interactions/?post=`: `{"post", "reactions", "replies", "boosts", "count"}`, each list of
    /// whole posts newest first: the posts with a mood replying to it, the other replies (poll votes left
    /// out of both) and the posts including it.
    func interactions(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try Self.requirePost(parameters)
        guard let found = try await readModel.interactions(with: key) else { throw Self.postNotFound(key) }
        let reactions = found.reactions.map(\.post)
        let posts = try await postsByURL([found.post] + reactions + found.replies + found.boosts)
        func list(_ urls: [String]) -> JSONValue {
            .array(urls.compactMap { posts[$0].map(MirrorJSON.post) })
        }
        var members: [(String, JSONValue)] = []
        if let post = posts[found.post] { members.append(("post", MirrorJSON.post(post))) }
        members += [
            ("reactions", list(reactions)), ("replies", list(found.replies)), ("boosts", list(found.boosts)),
            ("count", .int(reactions.count + found.replies.count + found.boosts.count)),
        ]
        return Self.bare(.object(members))
    }

    /// `GET /api/post/?post=`: the post, bare.
    func post(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try Self.requirePost(parameters)
        guard let post = try await readModel.posts(at: [key.feed + "#" + key.postID]).first else {
            throw Self.postNotFound(key)
        }
        return Self.bare(MirrorJSON.post(post))
    }

    /// `GET /api/polls/votes/?post=`: `{"post", "options": [{"option", "count", "voters"}]}`, one entry per
    /// option of the poll in order, `voters` the feeds that voted for it (each once), newest vote first.
    func pollVotes(_ parameters: RelayParameters) async throws -> RelayJSONReply {
        let key = try Self.requirePost(parameters)
        guard let tally = try await readModel.tally(of: key) else {
            throw MirrorProblem.notFound("Poll", "The relay has no post \(key.feed)#\(key.postID).")
        }
        guard tally.isPoll else {
            throw MirrorProblem.invalid("post", "\(tally.poll) is not a poll.")
        }
        let options: [JSONValue] = tally.options.map { option in
            var voters: [String] = []
            for vote in option.votes {
                let voter = PostKey(url: vote)?.feed ?? vote
                if !voters.contains(voter) { voters.append(voter) }
            }
            return .object([
                ("option", .string(option.option)), ("count", .int(voters.count)),
                ("voters", MirrorJSON.strings(voters)),
            ])
        }
        return Self.bare(.object([("post", .string(tally.poll)), ("options", .array(options))]))
    }

    /// The posts at `urls` by URL.
    func postsByURL(_ urls: [String]) async throws -> [String: ListedPost] {
        let posts = try await readModel.posts(at: urls)
        return Dictionary(posts.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The 404 for a post the index does not hold.
    static func postNotFound(_ key: PostKey) -> MirrorProblem {
        MirrorProblem.notFound("Post", "The relay has no post \(key.feed)#\(key.postID).")
    }
}
