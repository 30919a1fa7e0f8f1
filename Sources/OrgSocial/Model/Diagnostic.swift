/// A problem found while reading or validating a feed, with its place in the file.
///
/// Lines and columns start at 1. A column counts Unicode scalars from the start of the line (a TAB counts
/// as one). ``code`` is stable and documented in docs/reference.md; scripts may rely on it.
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
    /// For a summary diagnostic, how many diagnostics with the same ``code`` it stands for that are not
    /// listed; `nil` for an ordinary diagnostic. Only the first ``listedPerCode`` diagnostics of a code are
    /// kept, so that a hostile file cannot make millions of them; the rest are counted here.
    public var omittedCount: Int?

    /// How many diagnostics of one code a feed or a validation lists before summarizing the rest in one
    /// diagnostic whose ``omittedCount`` says how many were left out.
    public static let listedPerCode = 100

    /// How many problems this diagnostic stands for: ``omittedCount`` for a summary, otherwise 1. Add these
    /// up (rather than counting diagnostics) to report the real number of errors and warnings.
    public var problemCount: Int { omittedCount ?? 1 }

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

    /// Makes a diagnostic whose severity is its code's (``DiagnosticCode/severity``).
    /// - Parameters:
    ///   - code: the stable code; it decides the severity.
    ///   - line: 1-based line.
    ///   - column: 1-based column.
    ///   - message: what is wrong.
    ///   - suggestion: how to fix it.
    public init(_ code: DiagnosticCode, line: Int, column: Int = 1, message: String, suggestion: String? = nil) {
        self.init(
            severity: code.severity, line: line, column: column, code: code, message: message, suggestion: suggestion)
    }

    /// Makes a summary of diagnostics left out (see ``omittedCount``).
    /// - Parameters:
    ///   - first: the first diagnostic left out; its severity, place and code are the summary's.
    ///   - omittedCount: how many diagnostics of that code were left out, `first` included.
    /// - Returns: the summary diagnostic.
    public static func summary(of first: Diagnostic, omittedCount: Int) -> Diagnostic {
        var summary = Diagnostic(
            severity: first.severity, line: first.line, column: first.column, code: first.code,
            message:
                "\(omittedCount) more `\(first.code)` problem\(omittedCount == 1 ? "" : "s") from this line on are not listed (only the first \(listedPerCode) of a kind are).",
            suggestion: first.suggestion)
        summary.omittedCount = omittedCount
        return summary
    }

    /// `line:column: severity: message [code]`.
    public var description: String {
        "\(line):\(column): \(severity.rawValue): \(message) [\(code.rawValue)]"
    }
}

/// Collects diagnostics, keeping the first ``Diagnostic/listedPerCode`` of each code and counting the rest
/// into one summary per code, so that their memory stays bounded whatever the input.
struct DiagnosticList {
    private var listed: [Diagnostic] = []
    private var listedCounts: [DiagnosticCode: Int] = [:]
    /// Per code, the first diagnostic left out and how many were left out.
    private var omitted: [DiagnosticCode: (first: Diagnostic, count: Int)] = [:]

    /// Whether nothing is kept (`admits` is always `false`): for reading a post again, whose diagnostics
    /// the feed already has.
    private var isDiscarding = false
    /// The last code found to be over its limit, and the omissions of it not yet added to `omitted`.
    private var saturatedCode: DiagnosticCode?
    private var saturatedOmissions = 0

    /// An empty list.
    init() {}

    /// An empty list that keeps nothing when `discarding`.
    init(discarding: Bool) { isDiscarding = discarding }

    /// A list holding `diagnostics` (summaries among them are merged, not listed).
    init(_ diagnostics: [Diagnostic]) {
        listed.reserveCapacity(diagnostics.count)
        add(diagnostics)
    }

    /// Adds a diagnostic: listed while its code has fewer than ``Diagnostic/listedPerCode``, otherwise
    /// counted into the code's summary.
    mutating func append(_ diagnostic: Diagnostic) {
        let code = diagnostic.code
        if code == saturatedCode {
            saturatedOmissions += 1
            return
        }
        let count = listedCounts[code, default: 0]
        if count < Diagnostic.listedPerCode {
            listedCounts[code] = count + 1
            listed.append(diagnostic)
        } else if omitted[code] != nil {
            saturate(code)
        } else {
            omitted[code] = (diagnostic, 0)
            saturate(code)
        }
    }

    /// Whether a diagnostic of `code` should be made and passed to ``append(_:)``: `false` when it would
    /// only be counted, in which case it is counted now. Lets hot paths skip building messages nobody sees.
    mutating func admits(_ code: DiagnosticCode) -> Bool {
        if isDiscarding { return false }
        if code == saturatedCode {
            saturatedOmissions += 1
            return false
        }
        guard listedCounts[code, default: 0] >= Diagnostic.listedPerCode, omitted[code] != nil else { return true }
        saturate(code)
        return false
    }

    /// Counts one omission of `code` and makes it the code counted without a dictionary lookup (a hostile
    /// file repeats one problem), after adding the previous such code's count to its summary.
    private mutating func saturate(_ code: DiagnosticCode) {
        flushSaturated()
        saturatedCode = code
        saturatedOmissions = 1
    }

    private mutating func flushSaturated() {
        if let code = saturatedCode, saturatedOmissions > 0 { omitted[code]?.count += saturatedOmissions }
        saturatedOmissions = 0
    }

    /// Adds the diagnostics of `other`, found after this list's (the next posts of a feed read in runs):
    /// what appending them one by one in the same order would have made.
    mutating func append(contentsOf other: DiagnosticList) { add(other.diagnostics) }

    /// Appends `diagnostics` in order, merging the summaries among them.
    private mutating func add(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            if let count = diagnostic.omittedCount {
                merge(diagnostic, count: count)
            } else {
                append(diagnostic)
            }
        }
    }

    private mutating func merge(_ summary: Diagnostic, count: Int) {
        if let existing = omitted[summary.code] {
            let earlier = (existing.first.line, existing.first.column) <= (summary.line, summary.column)
            omitted[summary.code] = (earlier ? existing.first : summary, existing.count + count)
        } else {
            omitted[summary.code] = (summary, count)
        }
    }

    /// The listed diagnostics followed by one summary per code that had more, in no particular order.
    var diagnostics: [Diagnostic] {
        var result = listed
        for code in omitted.keys.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let entry = omitted[code] else { continue }
            let count = entry.count + (code == saturatedCode ? saturatedOmissions : 0)
            result.append(.summary(of: entry.first, omittedCount: count))
        }
        return result
    }
}

/// The stable code of a diagnostic and how serious a problem of that code is. docs/reference.md lists every
/// code with its meaning.
///
/// Two codes are equal when their texts are; the severity belongs to the text.
public struct DiagnosticCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code text, kebab-case.
    public let rawValue: String
    /// How serious a problem of this code is: every diagnostic of one code has this severity.
    public let severity: Diagnostic.Severity

    /// Wraps a code text; a code this library defines gets its severity, any other one is a warning.
    public init(rawValue: String) {
        self.rawValue = rawValue
        self.severity = Self.known[rawValue] ?? .warning
    }

    /// Makes a code with its severity.
    /// - Parameters:
    ///   - rawValue: the code text, kebab-case.
    ///   - severity: how serious a problem of this code is.
    public init(rawValue: String, severity: Diagnostic.Severity) {
        self.rawValue = rawValue
        self.severity = severity
    }

    /// The code's text, e.g. `missing-title`.
    public var description: String { rawValue }

    /// Decodes a code from its JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the code as its JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Whether two codes have the same text.
    public static func == (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue == rhs.rawValue }

    /// Hashes the code's text.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

extension DiagnosticCode {
    /// Every code this library defines.
    public static let all: [DiagnosticCode] = [
        .invalidUTF8, .byteOrderMark, .nonLFLineEndings, .missingPostsSection, .postsHeadingSpelling,
        .duplicatePostsSection, .strayText, .blankLineAfterPostsHeading, .missingTitle, .missingNick, .nickHasSpaces,
        .duplicateKeyword, .invalidAvatar, .avatarFormat, .invalidLink, .invalidFollow, .duplicateFollow, .invalidGroup,
        .invalidContact, .invalidBirthday, .invalidLanguage, .invalidPinned, .pinnedPostMissing, .missingPostID,
        .invalidPostID, .duplicatePostID, .conflictingPostIDs, .headlineTextAfterID, .headlineTitle, .misplacedDrawer,
        .unclosedDrawer, .malformedProperty, .duplicateProperty, .invalidReplyTo, .invalidInclude, .invalidPollEnd,
        .pollWithoutOptions, .voteWithoutPoll, .invalidLang, .invalidTags, .invalidVisibility, .invalidMigration,
        .invalidMention, .emptyPost,
    ]

    /// The severity of every code this library defines, by text.
    private static let known: [String: Diagnostic.Severity] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.rawValue, $0.severity) })

    // MARK: - File level (parser)
    /// Bytes that are not UTF-8; they read as U+FFFD.
    public static let invalidUTF8 = DiagnosticCode(rawValue: "invalid-utf8", severity: .error)
    /// A byte-order mark at the start of the file.
    public static let byteOrderMark = DiagnosticCode(rawValue: "byte-order-mark", severity: .warning)
    /// CRLF or CR line endings instead of LF.
    public static let nonLFLineEndings = DiagnosticCode(rawValue: "line-endings", severity: .warning)
    /// No `* Posts` section.
    public static let missingPostsSection = DiagnosticCode(rawValue: "missing-posts-section", severity: .warning)
    /// `* posts` or another spelling of the posts heading.
    public static let postsHeadingSpelling = DiagnosticCode(rawValue: "posts-heading-spelling", severity: .warning)
    /// More than one `* Posts` section.
    public static let duplicatePostsSection = DiagnosticCode(rawValue: "duplicate-posts-section", severity: .warning)
    /// Text inside `* Posts` that belongs to no post.
    public static let strayText = DiagnosticCode(rawValue: "stray-text", severity: .warning)
    /// Blank line right after `* Posts`.
    public static let blankLineAfterPostsHeading = DiagnosticCode(
        rawValue: "blank-line-after-posts-heading", severity: .warning)

    // MARK: - Header
    /// `#+TITLE` missing or empty.
    public static let missingTitle = DiagnosticCode(rawValue: "missing-title", severity: .error)
    /// `#+NICK` missing or empty.
    public static let missingNick = DiagnosticCode(rawValue: "missing-nick", severity: .error)
    /// `#+NICK` contains whitespace.
    public static let nickHasSpaces = DiagnosticCode(rawValue: "nick-has-spaces", severity: .error)
    /// A single-valued keyword appears more than once.
    public static let duplicateKeyword = DiagnosticCode(rawValue: "duplicate-keyword", severity: .warning)
    /// `#+AVATAR` is not an http(s) URL.
    public static let invalidAvatar = DiagnosticCode(rawValue: "invalid-avatar", severity: .error)
    /// `#+AVATAR` does not end in .jpg, .jpeg or .png.
    public static let avatarFormat = DiagnosticCode(rawValue: "avatar-format", severity: .warning)
    /// `#+LINK` is not a URL.
    public static let invalidLink = DiagnosticCode(rawValue: "invalid-link", severity: .warning)
    /// `#+FOLLOW` URL is not an http(s) URL.
    public static let invalidFollow = DiagnosticCode(rawValue: "invalid-follow", severity: .error)
    /// The same feed is followed twice.
    public static let duplicateFollow = DiagnosticCode(rawValue: "duplicate-follow", severity: .warning)
    /// `#+GROUP` or `:GROUP:` is not `<name> <relay URL>`.
    public static let invalidGroup = DiagnosticCode(rawValue: "invalid-group", severity: .error)
    /// `#+CONTACT` has no URI scheme.
    public static let invalidContact = DiagnosticCode(rawValue: "invalid-contact", severity: .warning)
    /// `#+BIRTHDAY` is not `YYYY-MM-DD`.
    public static let invalidBirthday = DiagnosticCode(rawValue: "invalid-birthday", severity: .error)
    /// `#+LANGUAGE` holds something other than ISO 639-1 codes.
    public static let invalidLanguage = DiagnosticCode(rawValue: "invalid-language", severity: .warning)
    /// `#+PINNED` is not a timestamp.
    public static let invalidPinned = DiagnosticCode(rawValue: "invalid-pinned", severity: .error)
    /// `#+PINNED` names no post of this feed.
    public static let pinnedPostMissing = DiagnosticCode(rawValue: "pinned-post-missing", severity: .warning)

    // MARK: - Posts
    /// A post has no ID.
    public static let missingPostID = DiagnosticCode(rawValue: "missing-post-id", severity: .error)
    /// A post ID is not a valid timestamp.
    public static let invalidPostID = DiagnosticCode(rawValue: "invalid-post-id", severity: .error)
    /// Two posts share an ID.
    public static let duplicatePostID = DiagnosticCode(rawValue: "duplicate-post-id", severity: .error)
    /// Headline ID and `:ID:` differ.
    public static let conflictingPostIDs = DiagnosticCode(rawValue: "conflicting-post-ids", severity: .warning)
    /// Headline timestamp followed by more text.
    public static let headlineTextAfterID = DiagnosticCode(rawValue: "headline-text-after-id", severity: .warning)
    /// Headline text that is not an ID.
    public static let headlineTitle = DiagnosticCode(rawValue: "headline-title", severity: .warning)
    /// Drawer separated from the headline or placed later in the post.
    public static let misplacedDrawer = DiagnosticCode(rawValue: "misplaced-drawer", severity: .warning)
    /// `:PROPERTIES:` without `:END:`.
    public static let unclosedDrawer = DiagnosticCode(rawValue: "unclosed-drawer", severity: .error)
    /// A drawer line that is not `:KEY: value`.
    public static let malformedProperty = DiagnosticCode(rawValue: "malformed-property", severity: .warning)
    /// A property repeated in one drawer.
    public static let duplicateProperty = DiagnosticCode(rawValue: "duplicate-property", severity: .warning)
    /// `:REPLY_TO:` is not `<http(s) URL>#<ID>`.
    public static let invalidReplyTo = DiagnosticCode(rawValue: "invalid-reply-to", severity: .error)
    /// `:INCLUDE:` is not `<http(s) URL>#<ID>`.
    public static let invalidInclude = DiagnosticCode(rawValue: "invalid-include", severity: .error)
    /// `:POLL_END:` is not a timestamp.
    public static let invalidPollEnd = DiagnosticCode(rawValue: "invalid-poll-end", severity: .error)
    /// A poll without `- [ ] option` lines.
    public static let pollWithoutOptions = DiagnosticCode(rawValue: "poll-without-options", severity: .warning)
    /// `:POLL_OPTION:` without `:REPLY_TO:`.
    public static let voteWithoutPoll = DiagnosticCode(rawValue: "vote-without-poll", severity: .error)
    /// `:LANG:` is not a language code.
    public static let invalidLang = DiagnosticCode(rawValue: "invalid-lang", severity: .warning)
    /// `:TAGS:` holds tokens that are not plain tag words.
    public static let invalidTags = DiagnosticCode(rawValue: "invalid-tags", severity: .warning)
    /// `:VISIBILITY:` other than `public`/`mention`.
    public static let invalidVisibility = DiagnosticCode(rawValue: "invalid-visibility", severity: .warning)
    /// `:MIGRATION:` is not two http(s) URLs.
    public static let invalidMigration = DiagnosticCode(rawValue: "invalid-migration", severity: .error)
    /// A mention link whose target is not an http(s) URL.
    public static let invalidMention = DiagnosticCode(rawValue: "invalid-mention", severity: .warning)
    /// A post with no body and nothing that makes an empty body meaningful.
    public static let emptyPost = DiagnosticCode(rawValue: "empty-post", severity: .warning)
}
