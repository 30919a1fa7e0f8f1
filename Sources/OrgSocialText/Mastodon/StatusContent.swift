/// What ``HTMLOrgConverter`` needs of a Mastodon-API status: its HTML `content` and the fields that say
/// what the HTML means (`mastodon-api.md` §1.7).
package struct StatusContent: Sendable, Hashable, Codable {
    /// An entry of the status's `mentions[]`: the only place the domain of an in-text `@user` appears.
    package struct Mention: Sendable, Hashable, Codable {
        /// The account's profile URL (`url`), which the mention link's `href` points to.
        package var url: String
        /// `acct`: `user@domain` for a remote account, the bare `user` for one on the status's server.
        package var acct: String
        /// `username`, without any domain.
        package var username: String

        /// Makes a mention entry.
        /// - Parameters:
        ///   - url: the profile URL.
        ///   - acct: `user@domain`, or `user` for a local account.
        ///   - username: the bare username.
        package init(url: String, acct: String, username: String) {
            self.url = url
            self.acct = acct
            self.username = username
        }
    }

    /// An entry of `media_attachments[]`.
    package struct Attachment: Sendable, Hashable, Codable {
        /// The file's URL (`url`, or `remote_url` when the server has not cached it).
        package var url: String
        /// The alt text (`description`), if any.
        package var description: String?
        /// `type`: `image`, `gifv`, `video`, `audio` or `unknown`.
        package var type: String

        /// Makes an attachment entry.
        /// - Parameters:
        ///   - url: the file's URL.
        ///   - description: the alt text.
        ///   - type: the media type name.
        package init(url: String, description: String? = nil, type: String = "image") {
            self.url = url
            self.description = description
            self.type = type
        }
    }

    /// The sanitised HTML (`content`).
    package var html: String
    /// The content warning (`spoiler_text`); empty when there is none.
    package var spoilerText: String
    /// `sensitive`.
    package var sensitive: Bool
    /// `mentions[]`.
    package var mentions: [Mention]
    /// `tags[].name` (without `#`).
    package var tags: [String]
    /// `media_attachments[]`.
    package var attachments: [Attachment]

    /// Makes the content of a status.
    /// - Parameters:
    ///   - html: the `content` HTML.
    ///   - spoilerText: the content warning, empty for none.
    ///   - sensitive: whether the status is marked sensitive.
    ///   - mentions: the `mentions[]` entries.
    ///   - tags: the `tags[]` names.
    ///   - attachments: the `media_attachments[]` entries.
    package init(
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
package struct OrgStatusText: Sendable, Hashable {
    /// The Org body, every line safe to write under a post headline (``OrgLineEscaping``).
    package var body: String
    /// The hashtags, without `#`, each a tag word (letters, digits, `-`, `_`), first spelling of each kept.
    package var tags: [String]

    /// Makes a converted status.
    /// - Parameters:
    ///   - body: the Org body.
    ///   - tags: the tags.
    package init(body: String, tags: [String]) {
        self.body = body
        self.tags = tags
    }
}
