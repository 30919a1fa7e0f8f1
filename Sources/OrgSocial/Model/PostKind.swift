/// What a post is, derived from its properties and body (spec §7).
public enum PostKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An ordinary post.
    case post
    /// `:REPLY_TO:` with a body, or with no mood.
    case reply
    /// `:REPLY_TO:` + `:MOOD:` and an empty body.
    case reaction
    /// `:INCLUDE:` with an empty body.
    case boost
    /// `:INCLUDE:` with a body.
    case quoteBoost = "quote-boost"
    /// `:POLL_END:`.
    case poll
    /// `:REPLY_TO:` + `:POLL_OPTION:`.
    case vote
    /// `:MIGRATION:`.
    case migration
    /// `:BOT:`.
    case bot
}
