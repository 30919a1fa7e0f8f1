import Foundation

/// A poll, as `GET /polls/?feed=` lists it (§2.13).
public struct RelayPoll: Sendable, Hashable, Decodable {
    /// `<feed>#<id>`.
    public var id: String
    /// The post ID.
    public var postID: String?
    /// The poll's text.
    public var content: String?
    /// When it closes (ISO 8601, UTC), as the relay wrote it.
    public var pollEnd: String?
    /// Whether it is still open.
    public var isActive: Bool?
    /// The options.
    public var options: [String]
    /// When it was posted (ISO 8601, UTC).
    public var createdAt: String?

    private enum CodingKeys: String, CodingKey {
        case id, content, options
        case postID = "post_id"
        case pollEnd = "poll_end"
        case isActive = "is_active"
        case createdAt = "created_at"
    }

    /// Decodes a poll.
    /// - Parameter decoder: the decoder.
    /// - Throws: `DecodingError` when `id` is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        postID = container.optional(.postID)
        content = container.optional(.content)
        pollEnd = container.optional(.pollEnd)
        isActive = container.optional(.isActive)
        options = container.lenient(.options, [])
        createdAt = container.optional(.createdAt)
    }
}

/// The votes on a poll (`GET /polls/votes/`, §2.14).
public struct RelayPollVotes: Sendable, Hashable {
    /// The poll (`meta.poll`).
    public var poll: String?
    /// Each option with its vote posts, in the poll's order.
    public var options: [Option]
    /// The votes counted (`meta.total_votes`).
    public var totalVotes: Int

    /// One option and its votes.
    public struct Option: Sendable, Hashable, Decodable {
        /// The option's text.
        public var option: String
        /// The vote posts.
        public var votes: [String]

        private enum CodingKeys: String, CodingKey { case option, votes }

        /// Decodes an option.
        /// - Parameter decoder: the decoder.
        /// - Throws: `DecodingError` when `option` is missing.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            option = try container.decode(String.self, forKey: .option)
            votes = container.lenient(.votes, [])
        }
    }

    struct Meta: Decodable {
        var poll: String?
        var totalVotes: Int?
        private enum CodingKeys: String, CodingKey {
            case poll
            case totalVotes = "total_votes"
        }
    }
}
