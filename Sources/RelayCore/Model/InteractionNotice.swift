/// A notification the relay publishes when it indexes a new post (`relay-api.md` §2.19): what happened
/// and to which feed.
///
/// The indexer produces these for *newly created* post rows and mention rows only; the SSE hub sends
/// them to subscribers of `targetFeed` and of the global stream.
package struct InteractionNotice: Sendable, Hashable {
    /// The four kinds, in the order the relay groups them when sort keys tie.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case mention
        case reaction
        case reply
        case boost
    }

    /// What happened.
    package var kind: Kind
    /// The new post, `<feed>#<id>`.
    package var post: String
    /// The reaction's emoji (`MOOD`); only for ``Kind/reaction``.
    package var emoji: String?
    /// The post replied or reacted to, `<feed>#<id>`; for ``Kind/reaction`` and ``Kind/reply``.
    package var parent: String?
    /// The boosted post, `<feed>#<id>`; only for ``Kind/boost``.
    package var boosted: String?
    /// The feed told: the mentioned feed, or the feed part of `parent`/`boosted`.
    package var targetFeed: String

    /// Makes a notification.
    ///
    /// - Parameters:
    ///   - kind: What happened.
    ///   - post: The new post's URL.
    ///   - emoji: The emoji of a reaction.
    ///   - parent: The parent of a reply or reaction.
    ///   - boosted: The boosted post.
    ///   - targetFeed: The feed to notify.
    package init(
        kind: Kind, post: String, emoji: String? = nil, parent: String? = nil, boosted: String? = nil,
        targetFeed: String
    ) {
        self.kind = kind
        self.post = post
        self.emoji = emoji
        self.parent = parent
        self.boosted = boosted
        self.targetFeed = targetFeed
    }
}
