/// `/.well-known/nodeinfo`: links to the nodeinfo documents by schema.
struct NodeInfoLinks: Decodable {
    /// One link.
    struct Link: Decodable {
        /// The schema URI, such as `http://nodeinfo.diaspora.software/ns/schema/2.1`.
        var rel: String
        /// The document's URL.
        var href: String
    }

    /// The links.
    var links: [Link]
}

/// The parts of a nodeinfo document discovery reads.
struct NodeInfoDocument: Decodable {
    /// `software`.
    struct Software: Decodable {
        /// The name (lowercase by spec, not always in practice).
        var name: String
        /// The version.
        var version: String?
    }

    /// Poll limits in Pleroma's nodeinfo metadata.
    struct PollLimits: Decodable {
        /// Most options.
        var maxOptions: Int?
        /// Most characters per option.
        var maxOptionChars: Int?
        /// Shortest poll, seconds.
        var minExpiration: Int?
        /// Longest poll, seconds.
        var maxExpiration: Int?
    }

    /// Free-form metadata; the few fields used.
    struct Metadata: Decodable {
        /// Misskey forks' character limit.
        var maxNoteTextLength: Int?
        /// Pleroma's poll limits.
        var pollLimits: PollLimits?
    }

    /// The software.
    var software: Software
    /// The metadata.
    var metadata: Metadata?
}

/// The parts of the instance documents (v2 and v1) discovery reads.
struct InstanceDocument: Decodable {
    /// `configuration`.
    struct Configuration: Decodable {
        /// `configuration.statuses`.
        struct Statuses: Decodable {
            /// Most characters.
            var maxCharacters: Int?
            /// Most media.
            var maxMediaAttachments: Int?
            /// What a URL counts as.
            var charactersReservedPerUrl: Int?
        }

        /// `configuration.polls`.
        struct Polls: Decodable {
            /// Most options.
            var maxOptions: Int?
            /// Most characters per option.
            var maxCharactersPerOption: Int?
            /// Shortest poll.
            var minExpiration: Int?
            /// Longest poll.
            var maxExpiration: Int?
        }

        /// The status limits.
        var statuses: Statuses?
        /// The poll limits.
        var polls: Polls?
    }

    /// `api_versions`.
    struct APIVersions: Decodable {
        /// The Mastodon API version.
        var mastodon: Int?
    }

    /// The version string (`4.5.0`, `2.7.2 (compatible; Akkoma 3.10.2)`).
    var version: String?
    /// `api_versions` (4.3+).
    var apiVersions: APIVersions?
    /// The configuration.
    var configuration: Configuration?
    /// Pleroma and Akkoma's v1 character limit.
    var maxTootChars: Int?
    /// Pleroma and Akkoma's v1 poll limits.
    var pollLimits: NodeInfoDocument.PollLimits?
}
