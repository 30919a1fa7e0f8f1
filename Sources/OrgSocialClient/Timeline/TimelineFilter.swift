public import Foundation
public import OrgSocial

/// Decides which posts a timeline shows: a pure function of the post, its feed and the options.
///
/// ```swift
/// let filter = TimelineFilter(options: options, userFeedURL: myFeedURL, now: Date())
/// if let reason = filter.exclusion(of: post, inFeed: feedURL) { print("hidden:", reason) }
/// ```
public struct TimelineFilter: Sendable {
    /// Why a post is left out.
    public enum Reason: String, Sendable, Hashable, CaseIterable {
        /// A reaction: `REPLY_TO` and `MOOD` with an empty body.
        case reaction
        /// A vote with an empty body.
        case emptyVote
        /// A post in a group (shown in the group instead).
        case groupPost
        /// Older than ``TimelineOptions/maxPostAgeDays``.
        case tooOld
        /// In a language outside ``TimelineOptions/languageFilter``.
        case language
        /// `VISIBILITY: mention` and the user is neither its author nor mentioned.
        case notMentioned
        /// Dated in the future (scheduled).
        case scheduled
        /// A bot post (`:BOT:`).
        case bot
        /// From a blocked feed.
        case blocked
        /// Without a valid timestamp ID.
        case invalidID
    }

    /// The options whose filters apply.
    public let options: TimelineOptions
    /// The reader's own feed URL, for `VISIBILITY: mention`; `nil` hides every mention-only post.
    public let userFeedURL: String?
    /// "Now".
    public let now: Date

    /// Makes a filter.
    /// - Parameters:
    ///   - options: the options.
    ///   - userFeedURL: the reader's feed URL.
    ///   - now: the current time.
    public init(options: TimelineOptions, userFeedURL: String?, now: Date) {
        self.options = options
        self.userFeedURL = userFeedURL
        self.now = now
    }

    /// Why `post` is left out, or `nil` when it is shown.
    /// - Parameters:
    ///   - post: the post.
    ///   - feedURL: the URL of its feed.
    /// - Returns: the first reason that applies.
    public func exclusion(of post: Post, inFeed feedURL: String) -> Reason? {
        if options.blocks(feedURL: feedURL) { return .blocked }
        guard post.id != nil, let instant = post.instant else { return .invalidID }
        switch post.kind {
        case .reaction: return .reaction
        case .vote where post.hasEmptyBody: return .emptyVote
        case .bot: return .bot
        default: break
        }
        if post.group != nil { return .groupPost }
        if Self.isScheduled(instant, now: now) { return .scheduled }
        if let days = options.maxPostAgeDays, instant < now.addingTimeInterval(-Double(days) * 86_400) {
            return .tooOld
        }
        if !options.languageFilter.isEmpty, let language = post.language,
            !options.languageFilter.contains(where: { Self.sameLanguage($0, language) })
        {
            return .language
        }
        if post.visibility.isMentionOnly {
            guard let user = userFeedURL else { return .notMentioned }
            if !FeedURL.same(feedURL, user), !post.mentions.contains(where: { FeedURL.same($0.feedURL, user) }) {
                return .notMentioned
            }
        }
        return nil
    }

    /// How far ahead of "now" a post may be dated and still not count as scheduled: 60 seconds. A writer
    /// moves a new post's ID forward a second at a time until no post has it (spec §4.4, which allows no
    /// fractional seconds in IDs), so a burst of posts gets IDs a few seconds in the future; and the
    /// writer's clock may run a little ahead of the reader's.
    public static let scheduledTolerance: TimeInterval = 60

    /// Whether a post dated `instant` is scheduled, that is, dated more than ``scheduledTolerance`` after
    /// `now` (spec §4.5).
    /// - Parameters:
    ///   - instant: the post's time, from its ID.
    ///   - now: the current time.
    /// - Returns: `true` when the post must not be shown yet.
    public static func isScheduled(_ instant: Date, now: Date) -> Bool {
        instant > now.addingTimeInterval(scheduledTolerance)
    }

    /// Whether two language tags name the same language (`en` matches `en-GB`; case ignored).
    static func sameLanguage(_ wanted: String, _ actual: String) -> Bool {
        let primary = { (tag: String) in
            tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        }
        let lhs = wanted.trimmingCharacters(in: .whitespaces)
        return lhs.lowercased() == actual.lowercased() || primary(lhs) == primary(actual)
    }
}
