package import Foundation

/// An account the fake knows.
package struct FakeAccount: Sendable, Hashable {
    /// The local ID.
    package var id: String
    /// The user name.
    package var username: String
    /// `user` or `user@domain`.
    package var acct: String
    /// The profile URL.
    package var url: String
}

/// A poll in the fake.
package struct FakePoll: Sendable, Hashable {
    /// The ID.
    package var id: String
    /// The options.
    package var options: [String]
    /// Votes per option.
    package var votes: [Int]
    /// When it closes.
    package var expiresAt: Date
    /// Several choices allowed.
    package var multiple: Bool
    /// The choices by voter account ID.
    package var voters: [String: [Int]] = [:]
}

/// A status in the fake.
package struct FakeStatus: Sendable, Hashable {
    /// Creation order (cursors compare by ID, which follows it).
    package var sequence: Int
    /// The opaque ID.
    package var id: String
    /// The author's account ID.
    package var accountID: String
    /// The source text.
    package var text: String
    /// The content warning.
    package var spoilerText: String
    /// Sensitive flag.
    package var sensitive: Bool
    /// Visibility.
    package var visibility: String
    /// Language.
    package var language: String?
    /// The parent's ID.
    package var inReplyToID: String?
    /// The parent's author.
    package var inReplyToAccountID: String?
    /// Attached media IDs.
    package var mediaIDs: [String]
    /// The poll.
    package var poll: FakePoll?
    /// Posted at.
    package var createdAt: Date
    /// Edited at.
    package var editedAt: Date?
    /// The posting app's name.
    package var applicationName: String?
    /// For a reblog wrapper: the original's ID.
    package var reblogOf: String?
    /// Accounts that favourited it.
    package var favouritedBy: Set<String> = []
    /// Pinned to the author's profile.
    package var pinned = false
}

/// Uploaded media in the fake.
package struct FakeMedia: Sendable, Hashable {
    /// The ID.
    package var id: String
    /// `image`, `video`, `audio`.
    package var type: String
    /// The MIME type.
    package var mimeType: String
    /// The alt text.
    package var description: String?
    /// Checks left answering 206.
    package var checksLeft: Int
    /// The uploader.
    package var accountID: String
    /// Whether processing is done.
    package var isProcessed: Bool { checksLeft <= 0 }
}

/// A registered app.
package struct FakeApp: Sendable, Hashable {
    /// The ID.
    package var id: String
    /// `client_name`.
    package var name: String
    /// `client_id`.
    package var clientID: String
    /// `client_secret`.
    package var clientSecret: String
    /// The registered redirect URIs.
    package var redirectURIs: [String]
    /// The registered scopes.
    package var scopes: [String]
}

/// An access token.
package struct FakeToken: Sendable, Hashable {
    /// The token.
    package var token: String
    /// The app's ID, if any.
    package var appID: String?
    /// The user, or `nil` for an app-only token.
    package var accountID: String?
    /// The granted scopes.
    package var scopes: Set<String>
    /// Whether revoked.
    package var revoked = false
}

/// An authorization code.
struct FakeCode: Sendable {
    var appID: String
    var redirectURI: String
    var scopes: [String]
    var challenge: String?
    var used = false
}

/// A notification.
package struct FakeNotification: Sendable, Hashable {
    /// Creation order.
    package var sequence: Int
    /// The ID.
    package var id: String
    /// `mention`, `favourite`, …
    package var type: String
    /// Who caused it.
    package var fromAccountID: String
    /// The status concerned.
    package var statusID: String?
    /// When.
    package var createdAt: Date
}

/// Everything the fake holds, behind one lock.
package struct FakeMastodonStorage: Sendable {
    /// Accounts by ID.
    package var accounts: [String: FakeAccount] = [:]
    /// Statuses by ID (deleted ones removed).
    package var statuses: [String: FakeStatus] = [:]
    /// Media by ID.
    package var media: [String: FakeMedia] = [:]
    /// Apps by client ID.
    package var apps: [String: FakeApp] = [:]
    /// Tokens by token.
    package var tokens: [String: FakeToken] = [:]
    /// Notifications, by ID.
    package var notifications: [String: FakeNotification] = [:]
    /// Codes by code.
    var codes: [String: FakeCode] = [:]
    /// Idempotency keys: (token, key) → status ID and when it was first used.
    var idempotency: [String: (statusID: String, at: Date)] = [:]
    /// Request counts per bucket and window.
    var rateCounts: [String: Int] = [:]
    /// Faults waiting, with the path prefix they apply to.
    var faults: [(fault: FakeFault, pathPrefix: String)] = []
    /// The journal.
    package var journal: [FakeJournalEntry] = []
    /// The next sequence number (IDs derive from it).
    var nextSequence = 0
    /// The next small ID for apps, media, polls, notifications.
    var nextSmallID = 0
    /// Bumped by ``FakeMastodon/dropStreams()``: a stream opened under an older generation ends.
    var streamGeneration = 0
    /// How many notification streams have been opened.
    package var streamsOpened = 0

    /// The number of statuses (reblog wrappers included).
    package var statusCount: Int { statuses.count }
}
