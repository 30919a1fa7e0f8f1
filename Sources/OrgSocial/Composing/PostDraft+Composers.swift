public import Foundation

/// The composers: each checks its inputs and returns a draft ready for ``Feed/append(_:at:timeZone:)``.
extension PostDraft {
    /// A post: text with optional language, tags, mood and visibility.
    ///
    /// With `visibility: .mention` the body must mention someone (``Mention/link(to:name:)``), or nobody
    /// could see the post.
    /// - Parameters:
    ///   - text: the body; must not be blank.
    ///   - language: an ISO 639-1 code such as `en` (optionally with a region, `pt-br`).
    ///   - tags: tag words (`[A-Za-z0-9_-]`; a leading `#` is dropped).
    ///   - mood: an emoji or short word.
    ///   - visibility: `.public` (default) or `.mention`.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` naming the bad input.
    public static func post(
        _ text: String, language: String? = nil, tags: [String] = [], mood: String? = nil,
        visibility: Visibility = .public
    ) throws -> PostDraft {
        var draft = PostDraft(body: try Check.text(text, field: "post text"))
        try draft.applyCommon(language: language, tags: tags, mood: mood, visibility: visibility)
        return draft
    }

    /// A reply to a post.
    /// - Parameters:
    ///   - target: the post replied to, `<feed URL>#<ID>` (copied byte for byte).
    ///   - text: the reply's body; must not be blank.
    ///   - language: optional language code.
    ///   - tags: optional tags.
    ///   - mood: optional mood shown with the reply.
    ///   - visibility: `.public` or `.mention`.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func reply(
        to target: PostReference, text: String, language: String? = nil, tags: [String] = [], mood: String? = nil,
        visibility: Visibility = .public
    ) throws -> PostDraft {
        var draft = PostDraft(body: try Check.text(text, field: "reply text"))
        draft.replyTo = try Check.reference(target, field: "reply target")
        try draft.applyCommon(language: language, tags: tags, mood: mood, visibility: visibility)
        return draft
    }

    /// A reaction: an emoji on a post, with an empty body (spec §7 "Reactions").
    /// - Parameters:
    ///   - target: the post reacted to.
    ///   - emoji: one emoji (ZWJ sequences, skin tones and flags are fine).
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func reaction(to target: PostReference, emoji: String) throws -> PostDraft {
        var draft = PostDraft()
        draft.replyTo = try Check.reference(target, field: "reaction target")
        draft.mood = try Check.emoji(emoji)
        return draft
    }

    /// A boost: shares a post without comment (spec §7 "Boosts").
    /// - Parameter target: the boosted post.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func boost(of target: PostReference) throws -> PostDraft {
        var draft = PostDraft()
        draft.include = try Check.reference(target, field: "boosted post")
        return draft
    }

    /// A quote-boost: shares a post with a comment.
    /// - Parameters:
    ///   - target: the quoted post.
    ///   - text: the comment; must not be blank.
    ///   - language: optional language code.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func quoteBoost(of target: PostReference, text: String, language: String? = nil) throws -> PostDraft {
        var draft = PostDraft(body: try Check.text(text, field: "quote text"))
        draft.include = try Check.reference(target, field: "quoted post")
        draft.language = try language.map(Check.language)
        return draft
    }

    /// A poll: a question and `- [ ] option` lines, closing at `endsAt` (spec §7 "Polls").
    /// - Parameters:
    ///   - question: the question; must not be blank.
    ///   - options: two or more distinct, single-line options.
    ///   - endsAt: when voting closes; must be after `now`.
    ///   - now: the current time (injectable for tests).
    ///   - timeZone: the zone `POLL_END` is written in.
    ///   - language: optional language code.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func poll(
        question: String, options: [String], endsAt: Date, now: Date = Date(), timeZone: TimeZone = .current,
        language: String? = nil
    ) throws -> PostDraft {
        let question = try Check.text(question, field: "poll question")
        let cleaned = try options.map { try Check.singleLine($0.trimmingSpacesAndTabs(), field: "poll option") }
        guard cleaned.count >= 2 else {
            throw OrgSocialError.invalidInput(
                field: "poll options", value: "", reason: "a poll needs at least two options.")
        }
        if let empty = cleaned.first(where: \.isEmpty) {
            throw OrgSocialError.invalidInput(field: "poll option", value: empty, reason: "options must not be empty.")
        }
        guard Set(cleaned).count == cleaned.count else {
            throw OrgSocialError.invalidInput(
                field: "poll options", value: cleaned.joined(separator: ", "),
                reason: "two options are the same; votes name options by their exact text, so each must differ.")
        }
        guard endsAt > now else {
            throw OrgSocialError.invalidInput(
                field: "poll end", value: OrgTimestamp.format(endsAt, timeZone: timeZone),
                reason: "the poll would already be closed; choose a time in the future.")
        }
        var draft = PostDraft(body: question + "\n\n" + cleaned.map { "- [ ] \($0)" }.joined(separator: "\n"))
        draft.pollEnd = OrgTimestamp.format(endsAt, timeZone: timeZone)
        draft.language = try language.map(Check.language)
        return draft
    }

    /// A vote on a poll: a reply carrying the chosen option (spec §7 "Polls and votes").
    /// - Parameters:
    ///   - poll: the poll voted on.
    ///   - option: the option's exact text.
    ///   - pollPost: the poll itself when known; the option must then be one of its options, and the poll
    ///     must still be open at `now`.
    ///   - text: an optional comment.
    ///   - now: the current time (injectable for tests).
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func vote(
        on poll: PostReference, option: String, pollPost: Post? = nil, text: String = "", now: Date = Date()
    ) throws -> PostDraft {
        let option = try Check.singleLine(option.trimmingSpacesAndTabs(), field: "poll option")
        guard !option.isEmpty else {
            throw OrgSocialError.invalidInput(field: "poll option", value: "", reason: "name the option you vote for.")
        }
        if let pollPost {
            let options = pollPost.pollOptions
            guard options.contains(option) else {
                throw OrgSocialError.invalidInput(
                    field: "poll option", value: option,
                    reason: "the poll's options are: \(options.map { "'\($0)'" }.joined(separator: ", ")).")
            }
            if let end = pollPost.pollEnd?.sortInstant, end <= now {
                throw OrgSocialError.invalidInput(
                    field: "vote", value: option, reason: "the poll closed at \(pollPost.pollEnd?.raw ?? "?").")
            }
        }
        var draft = PostDraft(body: text)
        draft.replyTo = try Check.reference(poll, field: "poll")
        draft.pollOption = option
        return draft
    }

    /// A post in a relay group (spec §7 "Groups").
    /// - Parameters:
    ///   - group: the group and its relay.
    ///   - text: the body; must not be blank.
    ///   - language: optional language code.
    ///   - tags: optional tags.
    ///   - mood: optional mood.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func groupPost(
        in group: GroupReference, text: String, language: String? = nil, tags: [String] = [], mood: String? = nil
    ) throws -> PostDraft {
        var draft = PostDraft(body: try Check.text(text, field: "group post text"))
        draft.group = try Check.group(group)
        try draft.applyCommon(language: language, tags: tags, mood: mood, visibility: .public)
        return draft
    }

    /// A migration announcement: the feed moved from `oldURL` to `newURL` (spec §7 "Migration").
    /// Publish it at the old URL, then redirect the old URL permanently.
    /// - Parameters:
    ///   - oldURL: where the feed was.
    ///   - newURL: where it is now.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func migration(from oldURL: String, to newURL: String) throws -> PostDraft {
        let old = try Check.url(oldURL, field: "old feed URL")
        let new = try Check.url(newURL, field: "new feed URL")
        guard old != new else {
            throw OrgSocialError.invalidInput(
                field: "new feed URL", value: new, reason: "it is the same as the old URL.")
        }
        var draft = PostDraft()
        draft.migration = Migration(oldURL: old, newURL: new)
        return draft
    }

    /// A bot post: a structured payload plus a human-readable body (spec §7 "Bots").
    /// - Parameters:
    ///   - type: the bot type (one word).
    ///   - parameters: the payload's tokens (no spaces inside a token).
    ///   - text: the human rendering; must not be blank.
    /// - Returns: The draft.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)``.
    public static func botPost(type: String, parameters: [String], text: String) throws -> PostDraft {
        let type = type.trimmingSpacesAndTabs()
        guard !type.isEmpty, type.tokens().count == 1 else {
            throw OrgSocialError.invalidInput(field: "bot type", value: type, reason: "it must be one word.")
        }
        for parameter in parameters where parameter.isEmpty || parameter.tokens().count != 1 {
            throw OrgSocialError.invalidInput(
                field: "bot parameter", value: parameter, reason: "parameters are single tokens without spaces.")
        }
        var draft = PostDraft(body: try Check.text(text, field: "bot post text"))
        draft.bot = BotPayload(type: type, parameters: parameters)
        return draft
    }

    mutating func applyCommon(language: String?, tags: [String], mood: String?, visibility: Visibility) throws {
        self.language = try language.map(Check.language)
        self.tags = try tags.map(Check.tag)
        if let mood {
            let trimmed = try Check.singleLine(mood.trimmingSpacesAndTabs(), field: "mood")
            self.mood = trimmed.isEmpty ? nil : trimmed
        }
        switch visibility {
        case .public:
            self.visibility = nil
        case .mention:
            guard !MentionScanner.mentions(in: body).isEmpty else {
                throw OrgSocialError.invalidInput(
                    field: "visibility", value: "mention",
                    reason:
                        "a mention-only post must mention someone ([[org-social:URL][name]]), or nobody could see it.")
            }
            self.visibility = .mention
        case .unknown(let value):
            throw OrgSocialError.invalidInput(field: "visibility", value: value, reason: "use 'public' or 'mention'.")
        }
    }
}
