import Foundation
import OrgSocial
import OrgSocialClient
import SystemSupport

/// Applies an editing command's change: to the local file, or with publishing to the remote feed first
/// (fetch, edit, conditional upload, retried on conflicts) and then to the local file, so that both
/// hold the same bytes.
enum FeedChange {
    /// Applies `change` to the feed file at `path`, publishing it when `publishing` (or the configuration's
    /// `publish.automatic`) says so.
    ///
    /// When publishing, the local file must not hold unpublished changes (it is replaced by the published
    /// feed); the change is applied to the remote content, checked like a local change (no new format
    /// errors), uploaded, then written locally. What the command prints comes from the attempt that
    /// landed, so a post ID is the one the server has.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - publishing: the command's `--publish`/`--no-publish`.
    ///   - feedURLOption: the command's `--feed-url`, if it has one.
    ///   - context: streams, environment and transport.
    ///   - change: the edit; runs once locally, or once per attempt on remote content.
    /// - Returns: what `change` returned (on the last attempt).
    /// - Throws: ``CLIError``, `OrgSocialError`, `OrgSocialClientError`.
    @discardableResult
    static func apply<Result: Sendable>(
        to path: String, publishing: PublishOptions, feedURLOption: String?, in context: CommandContext,
        _ change: @escaping @Sendable (inout Feed) throws -> Result
    ) async throws -> Result {
        guard try publishing.isEnabled(in: context) else {
            return try FeedFile.modify(at: path, in: context, requiringFeed: !publishing.allowsAnyFile, change)
        }
        let local = try FeedFile.read(at: path, in: context, requiringFeed: !publishing.allowsAnyFile)
        // Refuse before uploading, so that a read-only file is not left behind the published feed.
        try AtomicFile.checkWritable(path)
        let target: PublishDestination
        let result: PublishResult<(Result, [Diagnostic])>
        do {
            target = try PublishTarget.resolve(in: context, feedURLOption: feedURLOption)
            let synchronizer = FeedSync.synchronizer(path: path, target: target, in: context)
            let unpublished = try await synchronizer.unpublishedChanges(in: local.bytes)
            if unpublished != .none {
                throw CLIError.unpublishedLocalChanges(
                    path: path, url: target.feedURL.absoluteString,
                    wasPublishedFromHere: unpublished == .sinceLastAgreed)
            }
            let location = target.feedURL.absoluteString
            result = try await target.publish(with: synchronizer.publisher, creating: local) { feed in
                do {
                    return try FeedFile.checkedChange(of: &feed, reportingAs: location, change)
                } catch {
                    throw ChangeFailure(error: error)
                }
            }
        } catch let failure as ChangeFailure {
            throw failure.error
        } catch let error as CLIError {
            switch error {
            case .unpublishedLocalChanges, .cannotRead, .cannotWrite, .readOnlyFile, .notAFeed: throw error
            default: try saveUnpublished(to: path, in: context, change, because: error)
            }
        } catch {
            try saveUnpublished(to: path, in: context, change, because: error)
        }
        let location = target.feedURL.absoluteString
        try AtomicFile.write(result.feed.bytes, to: path)
        FeedSync.synchronizer(path: path, target: target, in: context).recordAgreed(result.feed.bytes)
        let (value, warnings) = result.value
        for warning in warnings {
            context.report(
                "warning: \(location):\(warning.line):\(warning.column): \(warning.message) [\(warning.code)]")
        }
        if result.didUpload {
            let retries = result.attempts > 1 ? " (after \(result.attempts - 1) conflicting edit(s) by others)" : ""
            context.report("Published to \(location)\(retries).")
        } else {
            context.report("Nothing to publish: \(location) already has this change.")
        }
        return value
    }

    /// An error thrown by the command's own change (not by publishing), passed through unchanged.
    private struct ChangeFailure: Error {
        /// What the change threw.
        let error: any Error
    }

    /// Publishing failed: applies `change` to the local file so that nothing the user typed is lost, then
    /// throws an error saying that the change was saved but not published.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - context: streams and environment.
    ///   - change: the command's edit.
    ///   - error: why publishing failed.
    /// - Throws: ``CLIError/savedButNotPublished(path:reason:)`` once the file is saved, or whatever saving
    ///   the file throws.
    private static func saveUnpublished<Result>(
        to path: String, in context: CommandContext, _ change: (inout Feed) throws -> Result,
        because error: any Error
    ) throws -> Never {
        _ = try FeedFile.modify(at: path, in: context, change)
        throw CLIError.savedButNotPublished(path: path, reason: error.localizedDescription)
    }
}
