import OrgSocial

/// What a relay is asked about a post to find the feeds that take part in it
/// (``RelayClient/feeds(takingPartIn:of:)``).
public enum RelayPostActivity: Sendable, Hashable {
    /// The post's thread (`GET /replies/`, §2.10): its ancestors, its replies at any depth and the
    /// reactions to each.
    case thread
    /// The post's poll (`GET /polls/votes/`, §2.14): the votes on it.
    case pollVotes
}

extension RelayClient {
    /// The feeds the relay knows to take part in a post's thread or poll, so that a reader can read
    /// feeds it does not follow and see every reply, reaction or vote.
    ///
    /// ```swift
    /// let relay = RelayClient(baseURL: URL(string: "https://relay.org-social.org")!)
    /// let feeds = try await relay.feeds(takingPartIn: .thread, of: "https://example.org/social.org#2026-01-01T10:00:00+0100")
    /// ```
    ///
    /// - Parameters:
    ///   - activity: what to ask about the post.
    ///   - postURL: the post's `<feed URL>#<ID>`.
    /// - Returns: The post's own feed, then the feed of each post the relay relates to this one in the
    ///   relay's order; each feed once, as spelled first.
    /// - Throws: ``OrgSocialClientError`` when the relay cannot be read.
    public func feeds(takingPartIn activity: RelayPostActivity, of postURL: String) async throws -> [String] {
        let posts: [String]
        switch activity {
        case .thread: posts = try await replies(to: postURL).allPosts
        case .pollVotes: posts = try await pollVotes(for: postURL).options.flatMap(\.votes)
        }
        var seen: Set<String> = []
        return ([postURL] + posts).compactMap { post in
            let feed = PostReference(parsing: post)?.feedURL ?? post
            return seen.insert(feed).inserted ? feed : nil
        }
    }
}
