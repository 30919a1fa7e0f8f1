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
        let path = try options.path(in: context)
        // With "now" fixed by ORGSOCIAL_NOW, waiting would not move it: a taken second moves the ID forward.
        let clock = PostClock(
            now: { try context.now() }, sleep: { try await context.sleep($0) },
            waitsForFreeSeconds: context.environment[CommandContext.nowVariable] == nil)
        let id = try await clock.append(
            in: context.timeZone, makeDraft: { feed, now in try makeDraft(feed, feedURL, now) },
            waiting: { wait in
                guard wait > Self.quietWait else { return }
                context.report(
                    "note: the post IDs of the next \(wait.components.seconds + 1) s are taken; waiting for a free one, "
                        + "so that the post is not dated ahead of the clock (Ctrl-C to stop).")
            },
            write: { change in
                try await FeedChange.apply(
                    to: path, publishing: publishing, feedURLOption: options.feedURLOption, in: context, change)
            })
        try publishing.output.finish(address: feedURL.map { "\($0)#\(id)" } ?? id, file: path, in: context)
    }

    /// How long a post waits silently for a free second; a longer wait is announced on standard error.
    static let quietWait: Duration = .seconds(3)

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
