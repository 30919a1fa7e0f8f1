/// A problem found while reading or validating a feed, with its place in the file.
///
/// Lines and columns start at 1. A column counts Unicode scalars from the start of the line (a TAB counts
/// as one). ``code`` is stable and documented in the README; scripts may rely on it.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable, Codable, Comparable {
        /// The feed breaks a rule of the format; clients may drop or misread what it concerns.
        case error
        /// The feed is readable but something is unusual or not recommended.
        case warning

        /// Errors sort before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// How serious it is.
    public var severity: Severity
    /// The 1-based line.
    public var line: Int
    /// The 1-based column (Unicode scalars).
    public var column: Int
    /// The stable code, e.g. `invalid-post-id`.
    public var code: DiagnosticCode
    /// What is wrong, in a sentence.
    public var message: String
    /// What to do about it, when there is a clear fix.
    public var suggestion: String?

    /// Makes a diagnostic.
    /// - Parameters:
    ///   - severity: error or warning.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    ///   - code: the stable code.
    ///   - message: what is wrong.
    ///   - suggestion: how to fix it.
    public init(
        severity: Severity, line: Int, column: Int = 1, code: DiagnosticCode, message: String,
        suggestion: String? = nil
    ) {
        self.severity = severity
        self.line = line
        self.column = column
        self.code = code
        self.message = message
        self.suggestion = suggestion
    }

    /// `line:column: severity: message [code]`.
    public var description: String {
        "\(line):\(column): \(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

/// The stable code of a diagnostic. The README lists every code with its meaning.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code text, kebab-case.
    public let rawValue: String

    /// Wraps a code text.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code's text, e.g. `missing-title`.
    public var description: String { rawValue }

    /// Decodes a code from its JSON string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the code as its JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension DiagnosticCode {
    // MARK: - File level (parser)
    /// Bytes that are not UTF-8; they read as U+FFFD.
    public static let invalidUTF8 = DiagnosticCode(rawValue: "invalid-utf8")
    /// A byte-order mark at the start of the file.
    public static let byteOrderMark = DiagnosticCode(rawValue: "byte-order-mark")
    /// CRLF or CR line endings instead of LF.
    public static let nonLFLineEndings = DiagnosticCode(rawValue: "line-endings")
    /// No `* Posts` section.
    public static let missingPostsSection = DiagnosticCode(rawValue: "missing-posts-section")
    /// `* posts` or another spelling of the posts heading.
    public static let postsHeadingSpelling = DiagnosticCode(rawValue: "posts-heading-spelling")
    /// More than one `* Posts` section.
    public static let duplicatePostsSection = DiagnosticCode(rawValue: "duplicate-posts-section")
    /// Text inside `* Posts` that belongs to no post.
    public static let strayText = DiagnosticCode(rawValue: "stray-text")
    /// Blank line right after `* Posts`.
    public static let blankLineAfterPostsHeading = DiagnosticCode(rawValue: "blank-line-after-posts-heading")

    // MARK: - Header
    /// `#+TITLE` missing or empty.
    public static let missingTitle = DiagnosticCode(rawValue: "missing-title")
    /// `#+NICK` missing or empty.
    public static let missingNick = DiagnosticCode(rawValue: "missing-nick")
    /// `#+NICK` contains whitespace.
    public static let nickHasSpaces = DiagnosticCode(rawValue: "nick-has-spaces")
    /// A single-valued keyword appears more than once.
    public static let duplicateKeyword = DiagnosticCode(rawValue: "duplicate-keyword")
    /// `#+AVATAR` is not an http(s) URL.
    public static let invalidAvatar = DiagnosticCode(rawValue: "invalid-avatar")
    /// `#+AVATAR` does not end in .jpg, .jpeg or .png.
    public static let avatarFormat = DiagnosticCode(rawValue: "avatar-format")
    /// `#+LINK` is not a URL.
    public static let invalidLink = DiagnosticCode(rawValue: "invalid-link")
    /// `#+FOLLOW` URL is not an http(s) URL.
    public static let invalidFollow = DiagnosticCode(rawValue: "invalid-follow")
    /// The same feed is followed twice.
    public static let duplicateFollow = DiagnosticCode(rawValue: "duplicate-follow")
    /// `#+GROUP` or `:GROUP:` is not `<name> <relay URL>`.
    public static let invalidGroup = DiagnosticCode(rawValue: "invalid-group")
    /// `#+CONTACT` has no URI scheme.
    public static let invalidContact = DiagnosticCode(rawValue: "invalid-contact")
    /// `#+BIRTHDAY` is not `YYYY-MM-DD`.
    public static let invalidBirthday = DiagnosticCode(rawValue: "invalid-birthday")
    /// `#+LANGUAGE` holds something other than ISO 639-1 codes.
    public static let invalidLanguage = DiagnosticCode(rawValue: "invalid-language")
    /// `#+PINNED` is not a timestamp.
    public static let invalidPinned = DiagnosticCode(rawValue: "invalid-pinned")
    /// `#+PINNED` names no post of this feed.
    public static let pinnedPostMissing = DiagnosticCode(rawValue: "pinned-post-missing")

    // MARK: - Posts
    /// A post has no ID.
    public static let missingPostID = DiagnosticCode(rawValue: "missing-post-id")
    /// A post ID is not a valid timestamp.
    public static let invalidPostID = DiagnosticCode(rawValue: "invalid-post-id")
    /// Two posts share an ID.
    public static let duplicatePostID = DiagnosticCode(rawValue: "duplicate-post-id")
    /// Headline ID and `:ID:` differ.
    public static let conflictingPostIDs = DiagnosticCode(rawValue: "conflicting-post-ids")
    /// Headline timestamp followed by more text.
    public static let headlineTextAfterID = DiagnosticCode(rawValue: "headline-text-after-id")
    /// Headline text that is not an ID.
    public static let headlineTitle = DiagnosticCode(rawValue: "headline-title")
    /// Drawer separated from the headline or placed later in the post.
    public static let misplacedDrawer = DiagnosticCode(rawValue: "misplaced-drawer")
    /// `:PROPERTIES:` without `:END:`.
    public static let unclosedDrawer = DiagnosticCode(rawValue: "unclosed-drawer")
    /// A drawer line that is not `:KEY: value`.
    public static let malformedProperty = DiagnosticCode(rawValue: "malformed-property")
    /// A property repeated in one drawer.
    public static let duplicateProperty = DiagnosticCode(rawValue: "duplicate-property")
    /// `:REPLY_TO:` is not `<http(s) URL>#<ID>`.
    public static let invalidReplyTo = DiagnosticCode(rawValue: "invalid-reply-to")
    /// `:INCLUDE:` is not `<http(s) URL>#<ID>`.
    public static let invalidInclude = DiagnosticCode(rawValue: "invalid-include")
    /// `:POLL_END:` is not a timestamp.
    public static let invalidPollEnd = DiagnosticCode(rawValue: "invalid-poll-end")
    /// A poll without `- [ ] option` lines.
    public static let pollWithoutOptions = DiagnosticCode(rawValue: "poll-without-options")
    /// `:POLL_OPTION:` without `:REPLY_TO:`.
    public static let voteWithoutPoll = DiagnosticCode(rawValue: "vote-without-poll")
    /// `:LANG:` is not a language code.
    public static let invalidLang = DiagnosticCode(rawValue: "invalid-lang")
    /// `:TAGS:` holds tokens that are not plain tag words.
    public static let invalidTags = DiagnosticCode(rawValue: "invalid-tags")
    /// `:VISIBILITY:` other than `public`/`mention`.
    public static let invalidVisibility = DiagnosticCode(rawValue: "invalid-visibility")
    /// `:MIGRATION:` is not two http(s) URLs.
    public static let invalidMigration = DiagnosticCode(rawValue: "invalid-migration")
    /// A mention link whose target is not an http(s) URL.
    public static let invalidMention = DiagnosticCode(rawValue: "invalid-mention")
    /// A post with no body and nothing that makes an empty body meaningful.
    public static let emptyPost = DiagnosticCode(rawValue: "empty-post")
}
