import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport

/// Applies an editing command's change: to the local file, or with publishing through
/// `FeedSynchronizer.edit` (the remote feed first, then the file, so that both hold the same bytes; the
/// file alone when publishing fails). This layer picks the destination from the options and the
/// configuration and prints what happened.
enum FeedChange {
    /// Applies `change` to the feed file at `path`, publishing it when `publishing` (or the configuration's
    /// `publish.automatic`) says so.
    ///
    /// When publishing, changes the file holds since it last published (a change saved when an upload
    /// failed) go up with this one; a file that never published and differs from the feed is not replaced. What the command prints comes from the attempt that landed, so a post ID is the one the
    /// server has.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - publishing: the command's `--publish`/`--no-publish`.
    ///   - feedURLOption: the command's `--feed-url`, if it has one.
    ///   - context: streams, environment and transport.
    ///   - change: the edit; runs once locally, or once per attempt on remote content.
    /// - Returns: what `change` returned (on the last attempt).
    /// - Throws: ``CLIError`` (``CLIError/savedButNotPublished(path:reason:)`` once the change is saved in
    ///   the file alone), or what `change` throws.
    @discardableResult
    static func apply<Result: Sendable>(
        to path: String, publishing: PublishOptions, feedURLOption: String?, in context: CommandContext,
        _ change: @escaping @Sendable (inout Feed) throws -> Result
    ) async throws -> Result {
        guard try publishing.isEnabled(in: context) else {
            return try FeedFile.modify(at: path, in: context, requiringFeed: !publishing.allowsAnyFile, change)
        }
        // Refuse before uploading, so that a read-only file is not left behind the published feed.
        try FeedFile.checkEditable(at: path, in: context, requiringFeed: !publishing.allowsAnyFile)
        let target: any PublishDestination
        do {
            target = try PublishTarget.resolve(in: context, feedURLOption: feedURLOption, options: publishing.target)
        } catch let error as CLIError {
            switch error {
            case .cannotRead, .cannotWrite, .readOnlyFile, .notAFeed: throw error
            default:
                _ = try FeedFile.modify(at: path, in: context, change)
                throw CLIError.savedButNotPublished(path: path, reason: error.localizedDescription)
            }
        }
        let location = target.feedURL.absoluteString
        let outcome: FeedSynchronizer.EditOutcome<Result>
        do {
            outcome = try await FeedSync.synchronizer(path: path, target: target, in: context).edit(change)
        } catch FeedSyncError.changeAddsErrors(let errors, let url) {
            throw CLIError.changeAddsErrors(
                path: url?.absoluteString ?? path, problems: errors.map(\.description))
        } catch let error as LocalFeedFileError {
            throw FeedFile.cliError(error)
        }
        switch outcome.publication {
        case .published(let attempts):
            publishing.output.published(
                to: location, uploaded: true, earlierChanges: outcome.publishedEarlierChanges)
            report(outcome.warnings, in: location, context: context)
            let retries = attempts > 1 ? " (after \(attempts - 1) conflicting edit(s) by others)" : ""
            context.report("Published to \(location)\(retries).")
            if outcome.publishedEarlierChanges {
                context.report("Also published the changes saved in '\(path)' earlier and not published then.")
            }
        case .alreadyPublished:
            publishing.output.published(to: location, uploaded: false)
            report(outcome.warnings, in: location, context: context)
            context.report("Nothing to publish: \(location) already has this change.")
        case .savedLocally(let reason):
            report(outcome.warnings, in: path, context: context)
            if Task.isCancelled || reason is CancellationError {
                context.reportEvenIfInterrupted(
                    "Interrupted: the change is saved in '\(path)' but not published. Run 'orgsocial sync --file "
                        + "\(path)' to publish it (running the command again would make it twice).")
                throw CancellationError()
            }
            if case FeedSyncError.unpublishedLocalChanges(_, let agreedBefore) = reason {
                throw CLIError.unpublishedLocalChanges(path: path, url: location, wasPublishedFromHere: agreedBefore)
            }
            throw CLIError.savedButNotPublished(path: path, reason: ErrorAdvice.message(for: reason))
        }
        FeedSync.reportLocal(
            outcome.localFile, baseNotSaved: outcome.baseNotSaved, path: path, location: location, in: context)
        await publishing.output.announce(target.feedURL, in: context)
        return outcome.value
    }

    /// Prints the warnings a change added, as `warning: LOCATION:LINE:COLUMN: message [code]`.
    private static func report(_ warnings: [Diagnostic], in location: String, context: CommandContext) {
        for warning in warnings {
            context.report(
                "warning: \(location):\(warning.line):\(warning.column): \(warning.message) [\(warning.code)]")
        }
    }
}
