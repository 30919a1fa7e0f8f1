public import Foundation

/// The content of a post before it is written into a feed: its properties and body.
///
/// Make drafts with the composers (``post(_:language:tags:mood:visibility:)``, ``reply(to:text:)``,
/// ``reaction(to:emoji:)``, ``boost(of:)``, ``poll(question:options:endsAt:now:timeZone:)``, …), which check
/// their inputs, then add them with ``Feed/append(_:at:timeZone:)``. A draft made from an existing post
/// (``init(_:)``) is what ``Feed/updatePost(id:_:)`` hands to its closure.
///
/// Properties are written in one fixed order (``canonicalOrder``) and only when they have a value.
public struct PostDraft: Sendable, Hashable {
    /// The body text (Org markup). Lines starting with `* ` or `** ` are escaped when written.
    public var body: String
    /// `:LANG:`.
    public var language: String?
    /// `:TAGS:` (written space-separated).
    public var tags: [String]
    /// `:CLIENT:`; `orgsocial` by default.
    public var client: String?
    /// `:REPLY_TO:`.
    public var replyTo: PostReference?
    /// `:INCLUDE:`.
    public var include: PostReference?
    /// `:POLL_END:` (a timestamp, as written).
    public var pollEnd: String?
    /// `:POLL_OPTION:`.
    public var pollOption: String?
    /// `:GROUP:`.
    public var group: GroupReference?
    /// `:VISIBILITY:`; `nil` (or `.public`) writes nothing.
    public var visibility: Visibility?
    /// `:MIGRATION:`.
    public var migration: Migration?
    /// `:BOT:`.
    public var bot: BotPayload?
    /// `:MOOD:`.
    public var mood: String?
    /// Other properties, written after the known ones in this order (never `ID`).
    public var extraProperties: [Property]

    /// The name of the client written by default.
    public static let defaultClient = "orgsocial"

    /// The order known properties are written in.
    public static let canonicalOrder = [
        "LANG", "TAGS", "CLIENT", "REPLY_TO", "INCLUDE", "POLL_END", "POLL_OPTION", "GROUP", "VISIBILITY",
        "MIGRATION", "BOT", "MOOD",
    ]

    /// Makes a draft from raw parts without checks (the composers check).
    /// - Parameters:
    ///   - body: the body text.
    ///   - client: the client name; `orgsocial` by default.
    public init(body: String = "", client: String? = PostDraft.defaultClient) {
        self.body = body
        self.tags = []
        self.client = client
        self.extraProperties = []
    }

    /// A draft holding what an existing post holds (first non-empty value of each property; unknown
    /// properties kept in order; `ID` left out since the ID never changes).
    /// - Parameter post: the post to copy.
    public init(_ post: Post) {
        self.init(body: post.body, client: post.client)
        language = post.language
        tags = post.value(of: "TAGS")?.tokens() ?? []
        replyTo = post.replyTo
        include = post.include
        pollEnd = post.value(of: "POLL_END")
        pollOption = post.pollOption
        group = post.group
        visibility = post.value(of: "VISIBILITY").map(Visibility.init(rawValue:))
        migration = post.migration
        bot = post.bot
        mood = post.mood
        var seen: Set<String> = []
        for property in post.properties where !property.value.isEmpty {
            let upper = property.name.uppercased()
            guard upper != "ID", !Self.canonicalOrder.contains(upper), seen.insert(upper).inserted else { continue }
            extraProperties.append(Property(name: property.name, value: property.value))
        }
    }

    /// The properties to write, in canonical order, without empty ones.
    public var orderedProperties: [(name: String, value: String)] {
        var result: [(String, String)] = []
        func add(_ name: String, _ value: String?) {
            guard let value = value?.trimmingSpacesAndTabs(), !value.isEmpty else { return }
            result.append((name, value))
        }
        add("LANG", language)
        add("TAGS", tags.joined(separator: " "))
        add("CLIENT", client)
        add("REPLY_TO", replyTo?.description)
        add("INCLUDE", include?.description)
        add("POLL_END", pollEnd)
        add("POLL_OPTION", pollOption)
        add("GROUP", group?.value)
        if let visibility, visibility != .public { add("VISIBILITY", visibility.rawValue) }
        add("MIGRATION", migration.map { "\($0.oldURL) \($0.newURL)" })
        add("BOT", bot.map { ([$0.type] + $0.parameters).joined(separator: " ") })
        for extra in extraProperties where extra.name.uppercased() != "ID" { add(extra.name.uppercased(), extra.value) }
        add("MOOD", mood)
        return result
    }

    /// The body as it will be written: line breaks normalised to `\n`, leading and trailing blank lines
    /// removed, and lines that would start a heading (`*`/`**` + space) prefixed with a space (spec §6).
    public var escapedBody: String {
        let normalized = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.trimmingSpacesAndTabs().isEmpty { lines.removeFirst() }
        while let last = lines.last, last.trimmingSpacesAndTabs().isEmpty { lines.removeLast() }
        return lines.map { Self.needsEscape($0) ? " " + $0 : $0 }.joined(separator: "\n")
    }

    /// Whether a body line would be read as a level-1 or level-2 heading.
    static func needsEscape(_ line: String) -> Bool {
        var stars = 0
        var rest = line.unicodeScalars[...]
        while rest.first == "*" {
            stars += 1
            rest = rest.dropFirst()
        }
        guard stars == 1 || stars == 2 else { return false }
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    /// The post's text in the canonical layout: `** <ID>`, the drawer, a blank line, the body; lines end
    /// with `\n` (the last one included).
    /// - Parameter id: the post ID.
    /// - Returns: The post's Org text.
    public func render(id: String) -> String {
        var text = "** \(id)\n:PROPERTIES:\n"
        for (name, value) in orderedProperties { text += ":\(name): \(value)\n" }
        text += ":END:\n"
        let body = escapedBody
        if !body.isEmpty { text += "\n\(body)\n" }
        return text
    }
}

// MARK: - Composers

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
                field: "poll options", value: "", reason: "a poll needs at least two options; give each with --option.")
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

extension Mention {
    /// The Org link that mentions a feed: `[[org-social:URL][name]]`.
    /// - Parameters:
    ///   - feedURL: the mentioned feed's URL.
    ///   - name: the text shown (usually their nick).
    /// - Returns: The link text.
    public static func link(to feedURL: String, name: String) -> String {
        "[[org-social:\(feedURL)][\(name)]]"
    }
}

// MARK: - Input checks

/// Checks shared by the composers; each throws ``OrgSocialError/invalidInput(field:value:reason:)``.
enum Check {
    static func text(_ text: String, field: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw OrgSocialError.invalidInput(field: field, value: "", reason: "it is empty; write some text.")
        }
        return text
    }

    static func singleLine(_ text: String, field: String) throws -> String {
        guard !text.contains(where: \.isNewline) else {
            throw OrgSocialError.invalidInput(field: field, value: text, reason: "it must fit on one line.")
        }
        guard text.count <= 200 else {
            throw OrgSocialError.invalidInput(
                field: field, value: String(text.prefix(40)) + "…", reason: "it is longer than 200 characters.")
        }
        return text
    }

    static func language(_ code: String) throws -> String {
        let code = code.trimmingSpacesAndTabs()
        guard isLanguageCode(code) else {
            throw OrgSocialError.invalidInput(
                field: "language", value: code, reason: "use an ISO 639-1 code such as 'en', 'es' or 'pt-br'.")
        }
        return code
    }

    static func tag(_ tag: String) throws -> String {
        var tag = tag.trimmingSpacesAndTabs()
        if tag.hasPrefix("#") { tag.removeFirst() }
        guard isTagWord(tag) else {
            throw OrgSocialError.invalidInput(
                field: "tag", value: tag, reason: "tags are single words of letters, digits, '-' and '_'.")
        }
        return tag
    }

    static func emoji(_ text: String) throws -> String {
        let trimmed = text.trimmingSpacesAndTabs()
        let isEmoji =
            !trimmed.isEmpty && trimmed.count <= 3
            && trimmed.unicodeScalars.contains {
                $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0xFF)
            }
        guard isEmoji else {
            throw OrgSocialError.invalidInput(
                field: "reaction", value: trimmed, reason: "a reaction is one emoji, e.g. 👍.")
        }
        return trimmed
    }

    static func url(_ text: String, field: String) throws -> String {
        let url = text.trimmingSpacesAndTabs()
        guard url.isHTTPURL else {
            throw OrgSocialError.invalidInput(
                field: field, value: url, reason: "it must be an http:// or https:// URL.")
        }
        return url
    }

    static func reference(_ reference: PostReference, field: String) throws -> PostReference {
        _ = try url(reference.feedURL, field: "\(field) feed URL")
        guard !reference.postID.isEmpty, reference.postID.tokens().count == 1 else {
            throw OrgSocialError.invalidInput(
                field: field, value: reference.description, reason: "it must be <feed URL>#<post ID>.")
        }
        return reference
    }

    static func group(_ group: GroupReference) throws -> GroupReference {
        let name = group.name.trimmingSpacesAndTabs()
        guard !name.isEmpty else {
            throw OrgSocialError.invalidInput(field: "group name", value: "", reason: "name the group.")
        }
        return GroupReference(name: name, relayURL: try url(group.relayURL, field: "group relay URL"))
    }
}

/// `en`, `es`, `pt-br`, `zh-Hant`: two or three lowercase letters, optionally a region or script.
func isLanguageCode(_ code: String) -> Bool {
    let parts = code.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, (2...3).contains(first.count),
        first.unicodeScalars.allSatisfy({ $0.value >= 0x61 && $0.value <= 0x7A })
    else { return false }
    guard parts.count <= 2 else { return false }
    if parts.count == 2 {
        let region = parts[1]
        return (2...4).contains(region.count)
            && region.unicodeScalars.allSatisfy {
                $0.properties.isAlphabetic && $0.isASCII || ($0.value >= 0x30 && $0.value <= 0x39)
            }
    }
    return true
}

/// A tag word: letters, digits, `-`, `_` (ASCII or not).
func isTagWord(_ tag: String) -> Bool {
    !tag.isEmpty
        && tag.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || ($0.value >= 0x30 && $0.value <= 0x39) || $0 == "-" || $0 == "_"
        }
}
