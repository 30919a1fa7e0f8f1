import Foundation
import OrgSocial
import OrgSocialClient

/// Appends a composed post to a feed file (and with publishing, to the remote feed) and prints its address.
enum DraftPublisher {
    /// Appends `draft` to the file of `options`, with an ID made from "now" (see
    /// ``CommandContext/now()``) in the context's time zone, and prints `<feed URL>#<ID>` (or the ID).
    /// - Parameters:
    ///   - draft: the post, made by a `PostDraft` composer.
    ///   - options: the file and feed URL.
    ///   - publishing: `--publish`/`--no-publish`.
    ///   - context: streams, environment and clock.
    /// - Throws: ``CLIError`` when the file cannot be read or written, `OrgSocialClientError` when
    ///   publishing fails.
    static func publish(
        _ draft: PostDraft, options: FeedFileOptions, publishing: PublishOptions, in context: CommandContext
    ) async throws {
        try await publish(options: options, publishing: publishing, in: context) { _, _, _ in draft }
    }

    /// Like ``publish(_:options:publishing:in:)``, for a draft that depends on the feed (a vote checked
    /// against a poll of the same file).
    /// - Parameters:
    ///   - options: the file and feed URL.
    ///   - publishing: `--publish`/`--no-publish`.
    ///   - context: streams, environment and clock.
    ///   - makeDraft: composes the post from the current feed (the remote one when publishing, at every
    ///     attempt), its URL (when known) and "now".
    /// - Throws: ``CLIError``, `OrgSocialClientError`, or what `makeDraft` throws.
    static func publish(
        options: FeedFileOptions, publishing: PublishOptions, in context: CommandContext,
        makeDraft: @escaping @Sendable (_ feed: Feed, _ feedURL: String?, _ now: Date) throws -> PostDraft
    ) async throws {
        // Without a feed URL of its own, a post that is published is printed at the URL it is published to.
        let published = try publishing.isEnabled(in: context)
        let feedURL =
            try options.feedURL(in: context)
            ?? (published
                ? (try? PublishTarget.resolve(in: context, feedURLOption: options.feedURLOption))?.feedURL
                    .absoluteString
                : nil)
        let timeZone = context.timeZone
        let path = try options.path(in: context)
        // With "now" fixed by ORGSOCIAL_NOW, waiting would not move it: a taken second moves the ID forward.
        var waits = context.environment[CommandContext.nowVariable] == nil ? Self.maximumWaits : 0
        while true {
            let now = try context.now()
            let mayWait = waits > 0
            do {
                let id = try await FeedChange.apply(
                    to: path, publishing: publishing, feedURLOption: options.feedURLOption, in: context
                ) { feed in
                    let draft = try makeDraft(feed, feedURL, now)
                    let free = feed.firstFreeMoment(for: now, timeZone: timeZone)
                    if mayWait, free > now, free.timeIntervalSince(now) <= Self.longestWait {
                        throw SecondTaken(freeAt: free)
                    }
                    return feed.append(draft, at: now, timeZone: timeZone).id
                        ?? feed.uniqueID(for: now, timeZone: timeZone)
                }
                context.writeLine(feedURL.map { "\($0)#\(id)" } ?? id)
                return
            } catch let taken as SecondTaken {
                waits -= 1
                try await waitForSecond(of: taken.freeAt, from: now, in: context)
            }
        }
    }

    /// The ID's second is taken by a post already in the feed: the post is written once the clock is in
    /// the free second at `freeAt`, so that its ID is never ahead of the clock (a reader would hide it as
    /// scheduled until then).
    private struct SecondTaken: Error {
        var freeAt: Date
    }

    /// How many times a post waits for a free second before its ID is moved ahead instead (another writer
    /// may take each free second first).
    static let maximumWaits = 5

    /// The longest wait for a free second, in seconds: beyond it, the ID is moved ahead of the clock.
    static let longestWait: TimeInterval = 60

    /// How long a post waits silently, in seconds; a longer wait is announced on standard error.
    static let quietWait: TimeInterval = 3

    /// Sleeps until the clock reaches the second of `moment` (a whole number of seconds after `now`).
    private static func waitForSecond(of moment: Date, from now: Date, in context: CommandContext) async throws {
        let start = moment.timeIntervalSince1970.rounded(.down) - now.timeIntervalSince1970
        let seconds = max(0, start)
        if seconds > quietWait {
            context.report(
                "note: the post IDs of the next \(Int(seconds.rounded(.up))) s are taken; waiting for a free one, "
                    + "so that the post is not dated ahead of the clock (Ctrl-C to stop).")
        }
        try await context.sleep(.milliseconds(Int((seconds * 1000).rounded(.up))))
    }

    /// Reads a `<feed URL>#<post ID>` option value.
    /// - Parameters:
    ///   - value: the value as given.
    ///   - option: the option's synopsis, for the error message.
    /// - Returns: the reference, both parts kept byte for byte.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` when it is not a post URL.
    static func postReference(_ value: String, option: String) throws -> PostReference {
        let example = "e.g. https://example.org/social.org#2026-01-02T03:04:05+0100"
        guard let reference = PostReference(parsing: value), FeedFileOptions.isHTTPURL(reference.feedURL),
            !reference.postID.contains(where: \.isWhitespace)
        else {
            throw CLIError.invalidValue(
                value: value, option: option, reason: "Give a post URL, <feed URL>#<post ID>, \(example).")
        }
        // `#notanid`, or `#<ID>#x` (split at its last `#`): the ID must be a post's, a timestamp.
        guard isPostID(reference.postID) else {
            throw CLIError.invalidValue(
                value: value, option: option,
                reason:
                    "'\(reference.postID)' is not a post ID (a post ID is a timestamp). Copy the post's URL exactly, "
                    + "<feed URL>#<post ID>, \(example).")
        }
        return reference
    }
}
