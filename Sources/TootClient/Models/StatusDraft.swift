public import Foundation
import HTTPCore

/// A new status to post, or the new state of an edited one (`POST`/`PUT /api/v1/statuses`).
public struct StatusDraft: Sendable, Hashable {
    /// A poll to attach.
    public struct PollDraft: Sendable, Hashable {
        /// The options' texts.
        public var options: [String]
        /// Seconds until it closes.
        public var expiresIn: Int
        /// Whether several options may be chosen.
        public var multiple: Bool
        /// Whether totals stay hidden until it closes.
        public var hideTotals: Bool

        /// Makes a poll.
        /// - Parameters:
        ///   - options: the options.
        ///   - expiresIn: seconds until it closes.
        ///   - multiple: several choices allowed.
        ///   - hideTotals: totals hidden until the end.
        public init(options: [String], expiresIn: Int, multiple: Bool = false, hideTotals: Bool = false) {
            self.options = options
            self.expiresIn = expiresIn
            self.multiple = multiple
            self.hideTotals = hideTotals
        }
    }

    /// The text (plain; the server links URLs, mentions and hashtags itself).
    public var text: String
    /// The content warning, if any (it counts toward the limit).
    public var spoilerText: String?
    /// Who sees it; the account's default when `nil`. Cannot be changed by an edit.
    public var visibility: Visibility?
    /// The ISO 639-1 language.
    public var language: String?
    /// The local ID of the status it replies to. Cannot be changed by an edit.
    public var inReplyToID: String?
    /// Whether the media is sensitive.
    public var sensitive: Bool?
    /// Uploaded media IDs (not together with a poll).
    public var mediaIDs: [String]
    /// A poll (not together with media).
    public var poll: PollDraft?
    /// `content_type` (`text/markdown` where the platform supports it).
    public var contentType: String?
    /// The status to quote (Mastodon API version 7).
    public var quotedStatusID: String?
    /// `scheduled_at`: on GoToSocial a past time backdates the status (an import of old posts,
    /// ``PlatformFeature/backdating``); Mastodon wants it at least 5 minutes ahead and answers a scheduled
    /// status instead, which this client does not read.
    public var scheduledAt: Date?

    /// Makes a draft.
    /// - Parameters:
    ///   - text: the text.
    ///   - spoilerText: the content warning.
    ///   - visibility: the visibility.
    ///   - language: the language.
    ///   - inReplyToID: the parent's local ID.
    ///   - sensitive: whether media is sensitive.
    ///   - mediaIDs: media to attach.
    ///   - poll: a poll.
    ///   - contentType: the content type.
    ///   - quotedStatusID: a status to quote.
    ///   - scheduledAt: a past time to backdate to (GoToSocial).
    public init(
        text: String, spoilerText: String? = nil, visibility: Visibility? = nil, language: String? = nil,
        inReplyToID: String? = nil, sensitive: Bool? = nil, mediaIDs: [String] = [], poll: PollDraft? = nil,
        contentType: String? = nil, quotedStatusID: String? = nil, scheduledAt: Date? = nil
    ) {
        self.text = text
        self.spoilerText = spoilerText
        self.visibility = visibility
        self.language = language
        self.inReplyToID = inReplyToID
        self.sensitive = sensitive
        self.mediaIDs = mediaIDs
        self.poll = poll
        self.contentType = contentType
        self.quotedStatusID = quotedStatusID
        self.scheduledAt = scheduledAt
    }

    /// An edit of `status` to `text` that keeps its media and poll: the server removes whatever an edit
    /// leaves out (mastodon-api.md §0.2), so they are sent again.
    /// - Parameters:
    ///   - status: the status as it is now.
    ///   - text: the new text.
    ///   - spoilerText: the new content warning; the current one when `nil`.
    ///   - now: the current time, for the poll's remaining seconds.
    /// - Returns: the draft to pass to ``TootClient/editStatus(id:_:)``.
    public static func edit(of status: Status, text: String, spoilerText: String? = nil, now: Date = Date())
        -> StatusDraft
    {
        var draft = StatusDraft(
            text: text, spoilerText: spoilerText ?? status.spoilerText, language: status.language,
            sensitive: status.sensitive, mediaIDs: status.mediaAttachments?.map(\.id) ?? [])
        if let poll = status.poll {
            let remaining = poll.expiresAt.map { Int($0.timeIntervalSince(now).rounded(.up)) } ?? 86_400
            draft.poll = PollDraft(
                options: poll.options.map(\.title), expiresIn: max(300, remaining), multiple: poll.multiple ?? false)
        }
        return draft
    }

    /// The JSON body: arrays as JSON arrays, the poll as a nested object (mastodon-api.md §1.5).
    /// - Parameter editing: whether this is an edit (visibility and reply cannot be sent then).
    /// - Returns: the JSON object.
    func json(editing: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [("status", .string(text))]
        if let spoilerText { members.append(("spoiler_text", .string(spoilerText))) }
        if let sensitive { members.append(("sensitive", .bool(sensitive))) }
        if let language { members.append(("language", .string(language))) }
        if !editing, let visibility { members.append(("visibility", .string(visibility.rawValue))) }
        if !editing, let inReplyToID { members.append(("in_reply_to_id", .string(inReplyToID))) }
        members.append(("media_ids", .array(mediaIDs.map { .string($0) })))
        if let poll {
            members.append(
                (
                    "poll",
                    .object([
                        ("options", .array(poll.options.map { .string($0) })), ("expires_in", .int(poll.expiresIn)),
                        ("multiple", .bool(poll.multiple)), ("hide_totals", .bool(poll.hideTotals)),
                    ])
                ))
        }
        if let contentType { members.append(("content_type", .string(contentType))) }
        if let quotedStatusID { members.append(("quoted_status_id", .string(quotedStatusID))) }
        if !editing, let scheduledAt {
            members.append(("scheduled_at", .string(scheduledAt.formatted(.iso8601))))
        }
        return .object(members)
    }
}
