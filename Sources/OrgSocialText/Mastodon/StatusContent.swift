/// What ``HTMLOrgConverter`` needs of a Mastodon-API status: its HTML `content` and the fields that say
/// what the HTML means (`mastodon-api.md` §1.7).
public struct StatusContent: Sendable, Hashable, Codable {
    /// An entry of the status's `mentions[]`: the only place the domain of an in-text `@user` appears.
    public struct Mention: Sendable, Hashable, Codable {
        /// The account's profile URL (`url`), which the mention link's `href` points to.
        public var url: String
        /// `acct`: `user@domain` for a remote account, the bare `user` for one on the status's server.
        public var acct: String
        /// `username`, without any domain.
        public var username: String

        /// Makes a mention entry.
        /// - Parameters:
        ///   - url: the profile URL.
        ///   - acct: `user@domain`, or `user` for a local account.
        ///   - username: the bare username.
        public init(url: String, acct: String, username: String) {
            self.url = url
            self.acct = acct
            self.username = username
        }
    }

    /// An entry of `media_attachments[]`.
    public struct Attachment: Sendable, Hashable, Codable {
        /// The file's URL (`url`, or `remote_url` when the server has not cached it).
        public var url: String
        /// The alt text (`description`), if any.
        public var description: String?
        /// `type`: `image`, `gifv`, `video`, `audio` or `unknown`.
        public var type: String

        /// Makes an attachment entry.
        /// - Parameters:
        ///   - url: the file's URL.
        ///   - description: the alt text.
        ///   - type: the media type name.
        public init(url: String, description: String? = nil, type: String = "image") {
            self.url = url
            self.description = description
            self.type = type
        }
    }

    /// The sanitised HTML (`content`).
    public var html: String
    /// The content warning (`spoiler_text`); empty when there is none.
    public var spoilerText: String
    /// `sensitive`.
    public var sensitive: Bool
    /// `mentions[]`.
    public var mentions: [Mention]
    /// `tags[].name` (without `#`).
    public var tags: [String]
    /// `media_attachments[]`.
    public var attachments: [Attachment]

    /// Makes the content of a status.
    /// - Parameters:
    ///   - html: the `content` HTML.
    ///   - spoilerText: the content warning, empty for none.
    ///   - sensitive: whether the status is marked sensitive.
    ///   - mentions: the `mentions[]` entries.
    ///   - tags: the `tags[]` names.
    ///   - attachments: the `media_attachments[]` entries.
    public init(
        html: String, spoilerText: String = "", sensitive: Bool = false, mentions: [Mention] = [],
        tags: [String] = [], attachments: [Attachment] = []
    ) {
        self.html = html
        self.spoilerText = spoilerText
        self.sensitive = sensitive
        self.mentions = mentions
        self.tags = tags
        self.attachments = attachments
    }
}

/// A status converted to Org: the post body and the tags for its `:TAGS:` property.
public struct OrgStatusText: Sendable, Hashable {
    /// The Org body, every line safe to write under a post headline (`OrgLineEscaping`).
    public var body: String
    /// The hashtags, without `#`, each a tag word (letters, digits, `-`, `_`), first spelling of each kept.
    public var tags: [String]

    /// Makes a converted status.
    /// - Parameters:
    ///   - body: the Org body.
    ///   - tags: the tags.
    public init(body: String, tags: [String]) {
        self.body = body
        self.tags = tags
    }
}
