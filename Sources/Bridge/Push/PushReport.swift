/// What a push did (or, in a dry run, would do) to one post.
public struct PushEntry: Sendable, Hashable, Codable {
    /// The kind of change.
    public enum Action: String, Sendable, Hashable, Codable, CaseIterable {
        /// New statuses.
        case create
        /// Statuses found on the account (made by an earlier run whose answer or state was lost) and mapped.
        case recover
        /// Statuses edited after the post changed.
        case edit
        /// Statuses deleted after the post was removed.
        case delete
        /// A boost of a mirrored post, reblogged.
        case reblog
        /// A removed boost, unreblogged.
        case unreblog
        /// A reaction to a mirrored post, favourited.
        case favourite
        /// A removed reaction, unfavourited.
        case unfavourite
        /// The pinned post's first status, pinned.
        case pin
        /// A status no longer pinned in the feed, unpinned.
        case unpin
        /// Left out (see ``PushEntry/reason``).
        case skip
        /// Refused by the server (see ``PushEntry/reason``); tried again on the next run.
        case fail
    }

    /// The post's ID.
    public var postID: String
    /// What was done.
    public var action: Action
    /// The statuses sent (create, edit): text, content warning, counted characters.
    public var statuses: [PlannedStatus]
    /// The statuses concerned, once known.
    public var statusIDs: [String]
    /// Why it was skipped or failed.
    public var reason: String?

    /// Makes an entry.
    /// - Parameters:
    ///   - postID: the post.
    ///   - action: the change.
    ///   - statuses: the statuses sent.
    ///   - statusIDs: their IDs.
    ///   - reason: why it was skipped or failed.
    public init(
        postID: String, action: Action, statuses: [PlannedStatus] = [], statusIDs: [String] = [], reason: String? = nil
    ) {
        self.postID = postID
        self.action = action
        self.statuses = statuses
        self.statusIDs = statusIDs
        self.reason = reason
    }
}

/// What one `bridge push` of one feed to one account did.
public struct PushReport: Sendable, Hashable, Codable {
    /// The account's name.
    public var account: String
    /// The feed's URL.
    public var feed: String
    /// Whether nothing was sent (`--dry-run`).
    public var dryRun: Bool
    /// One entry per post acted on or skipped, in the order handled.
    public var entries: [PushEntry]

    /// The counts for the run record: created and recovered posts, edits and deletes.
    public var counts: RunCounts {
        var counts = RunCounts()
        for entry in entries {
            switch entry.action {
            case .create, .recover, .reblog, .favourite: counts.pushed += 1
            case .edit: counts.edited += 1
            case .delete, .unreblog, .unfavourite: counts.deleted += 1
            case .pin, .unpin, .skip, .fail: break
            }
        }
        return counts
    }
}
