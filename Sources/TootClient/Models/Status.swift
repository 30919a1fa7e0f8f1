public import Foundation

/// A status (a post) as the API returns it; fields some servers omit are optional (mastodon-api.md §1.7).
public struct Status: Codable, Sendable, Hashable {
    /// The instance-local ID: an opaque string (snowflake, flake, ULID…), never a number.
    public var id: String
    /// The ActivityPub ID, the same on every instance.
    public var uri: String?
    /// The human page, if any.
    public var url: String?
    /// When it was posted.
    public var createdAt: Date
    /// When it was last edited, or `nil`.
    public var editedAt: Date?
    /// The sanitized HTML.
    public var content: String?
    /// The source text: only in DELETE answers (and GoToSocial's).
    public var text: String?
    /// The content warning; empty when none.
    public var spoilerText: String?
    /// Whether the media is marked sensitive.
    public var sensitive: Bool?
    /// Who sees it.
    public var visibility: Visibility?
    /// The ISO 639-1 language.
    public var language: String?
    /// The parent's local ID.
    public var inReplyToId: String?
    /// The parent's author's local ID (walk ``inReplyToId`` instead: it can be the thread's first author).
    public var inReplyToAccountId: String?
    /// The status this one reblogs (a reblog is a wrapper with its own ID).
    public var reblog: Indirect<Status>?
    /// The author.
    public var account: Account?
    /// The poll, if any.
    public var poll: Poll?
    /// The attachments.
    public var mediaAttachments: [MediaAttachment]?
    /// The mentioned accounts: the only place a mention's domain appears.
    public var mentions: [Mention]?
    /// The hashtags.
    public var tags: [Tag]?
    /// The posting application (shown to the author's own token): how a bridge knows its own posts.
    public var application: Application?
    /// Whether this token favourited it.
    public var favourited: Bool?
    /// Whether this token reblogged it.
    public var reblogged: Bool?
    /// Whether it is pinned to the author's profile.
    public var pinned: Bool?
    /// Favourite count.
    public var favouritesCount: Int?
    /// Reblog count.
    public var reblogsCount: Int?
}

/// An account, as much as a bridge needs of it.
public struct Account: Codable, Sendable, Hashable {
    /// The instance-local ID.
    public var id: String
    /// The user name without domain.
    public var username: String
    /// `user` for local accounts, `user@domain` for remote ones.
    public var acct: String
    /// The profile page.
    public var url: String?
    /// The display name.
    public var displayName: String?
    /// The posting defaults (only from `verify_credentials`).
    public var source: Source?

    /// The account's posting defaults.
    public struct Source: Codable, Sendable, Hashable {
        /// The default visibility.
        public var privacy: Visibility?
        /// Whether media is sensitive by default.
        public var sensitive: Bool?
        /// The default language.
        public var language: String?
        /// The profile note as typed.
        public var note: String?
    }
}

/// A mention in a status.
public struct Mention: Codable, Sendable, Hashable {
    /// The account's local ID.
    public var id: String
    /// The user name.
    public var username: String
    /// The profile page.
    public var url: String
    /// `user@domain` for remote accounts.
    public var acct: String
}

/// A hashtag in a status.
public struct Tag: Codable, Sendable, Hashable {
    /// The name, without `#`.
    public var name: String
    /// The tag's page.
    public var url: String?
}

/// The application that posted a status.
public struct Application: Codable, Sendable, Hashable {
    /// Its name (the app's `client_name`).
    public var name: String
    /// Its website.
    public var website: String?
}

/// A poll.
public struct Poll: Codable, Sendable, Hashable {
    /// One option.
    public struct Option: Codable, Sendable, Hashable {
        /// Its text.
        public var title: String
        /// Its votes, when shown.
        public var votesCount: Int?
    }

    /// The poll's ID.
    public var id: String
    /// When it closes.
    public var expiresAt: Date?
    /// Whether it has closed.
    public var expired: Bool?
    /// Whether several options may be chosen.
    public var multiple: Bool?
    /// Total votes.
    public var votesCount: Int?
    /// The options.
    public var options: [Option]
    /// Whether this token voted.
    public var voted: Bool?
    /// The options this token chose.
    public var ownVotes: [Int]?
}

/// An uploaded media file.
public struct MediaAttachment: Codable, Sendable, Hashable {
    /// The ID to attach it with.
    public var id: String
    /// `image`, `gifv`, `video`, `audio` or `unknown`.
    public var type: String
    /// The file, or `nil` while processing.
    public var url: String?
    /// The preview.
    public var previewUrl: String?
    /// The alt text.
    public var description: String?
}

/// The text of a status as its author typed it (`GET /api/v1/statuses/:id/source`).
public struct StatusSource: Codable, Sendable, Hashable {
    /// The status's ID.
    public var id: String
    /// The text.
    public var text: String
    /// The content warning.
    public var spoilerText: String
}

/// A status's thread (`GET /api/v1/statuses/:id/context`).
public struct StatusContext: Codable, Sendable, Hashable {
    /// The parents, oldest first.
    public var ancestors: [Status]
    /// The replies.
    public var descendants: [Status]
}

/// A notification.
public struct TootNotification: Codable, Sendable, Hashable {
    /// The notification's ID (the paging cursor).
    public var id: String
    /// `mention`, `reblog`, `favourite`, `follow`, `poll`, …
    public var type: String
    /// When it happened.
    public var createdAt: Date
    /// Who did it.
    public var account: Account?
    /// The status concerned, for mentions, reblogs and favourites.
    public var status: Status?
}
