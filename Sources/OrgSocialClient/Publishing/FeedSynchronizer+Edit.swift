import Foundation
public import OrgSocial

extension FeedSynchronizer {
    /// What ``edit(_:)`` did with a change.
    public struct EditOutcome<Value: Sendable>: Sendable {
        /// Where the change went.
        public enum Publication: Sendable {
            /// Applied to the remote feed and uploaded, after `attempts` fetches (more than one when others
            /// wrote the feed in between), then written to the file.
            case published(attempts: Int)
            /// The remote feed already held the change; the file now has the remote feed's bytes.
            case alreadyPublished
            /// Publishing failed or was refused for `reason` (the network, the server, the credentials, a
            /// file with unpublished changes of its own, the task cancelled); the change was applied to the
            /// file alone, so nothing is lost, and the next sync publishes it.
            case savedLocally(reason: any Error)
        }

        /// What the change returned (on the attempt that landed).
        public let value: Value
        /// The warnings the change added to the feed it was applied to.
        public let warnings: [Diagnostic]
        /// The feed the change produced (the published feed, or the file's feed with the change).
        public let bytes: [UInt8]
        /// Where the change went.
        public let publication: Publication
        /// What happened to the local file: replaced, or, when it changed while the change was being
        /// published, merged with that change or left as the other writer made it.
        public var localFile: LocalFeedFile.Replacement = .replaced
        /// Why the new merge base could not be saved, if it could not (worth a warning).
        public var baseNotSaved: MergeBaseStoreError?
        /// Whether changes saved in the file earlier and not published then (an upload that failed, an edit
        /// by hand) were published with this one.
        public var publishedEarlierChanges = false
    }

    /// Applies an edit to the published feed first, then to the file, so that both hold the same bytes;
    /// when publishing fails or is refused, to the file alone.
    ///
    /// The file is read, and the remote feed is fetched, changed by `change` (refused when the change adds
    /// format errors, `Feed.applyChecked(_:)`), uploaded with `If-Match` and retried from a fresh fetch
    /// when another writer got in first; the result is written to the file and becomes the merge base. The
    /// file is written under its lock and only if it still holds what was read: a post added to it during
    /// the upload (from another terminal) is merged with the result, never overwritten
    /// (``LocalFeedFile/replace(expecting:with:)``).
    ///
    /// When the file holds changes made since it last agreed with the remote feed (a change saved when an
    /// upload failed, an edit by hand), `change` is applied to the file and the file is synced: the earlier
    /// changes go up with this one, each once (``EditOutcome/publishedEarlierChanges``). When the file never
    /// agreed with the remote feed and differs from it, or the remote feed cannot be read or written (the
    /// network, the server, the credentials, the task cancelled), `change` is applied to the file alone and
    /// the outcome says why it was not published; the next write, `publish` or sync publishes it.
    ///
    /// ```swift
    /// let outcome = try await sync.edit { feed in feed.append(PostDraft(body: "Hello")) }
    /// if case .savedLocally(let reason) = outcome.publication { print("not published: \(reason)") }
    /// ```
    /// - Parameter change: the edit; it runs once per attempt, each time on fresh content.
    /// - Returns: What the change returned and where it went.
    /// - Throws: ``FeedSyncError/changeAddsErrors(_:url:)`` when the change would add format errors (to the
    ///   remote feed, or to the file when it fell back to it), ``LocalFeedFileError`` for the file, and what
    ///   `change` throws.
    public func edit<Value: Sendable>(_ change: @escaping @Sendable (inout Feed) throws -> Value) async throws
        -> EditOutcome<Value>
    {
        let url = destination.feedURL
        let local = try file.read()
        let unpublished: LocalChanges
        do {
            unpublished = try await unpublishedChanges(in: local)
        } catch {
            return try applyLocally(change, because: error)
        }
        switch unpublished {
        case .none:
            break
        case .sinceLastAgreed:
            return try await publishWithPendingChanges(change)
        case .neverAgreed:
            return try applyLocally(
                change, because: FeedSyncError.unpublishedLocalChanges(url: url, agreedBefore: false))
        }
        let result: PublishResult<(Value, [Diagnostic])>
        do {
            result = try await publisher.publish(to: destination, creating: Feed(bytes: local)) { feed in
                do {
                    return try feed.applyChecked(change)
                } catch {
                    throw ChangeFailure(error: error)
                }
            }
        } catch let failure as ChangeFailure {
            throw Self.refusal(failure.error, url: url)
        } catch {
            // The file held what is published: keep that as its base, so that the next write (or sync) sees
            // this change as the file's own and publishes it.
            if bases.base(ofFile: path, at: url) == nil { _ = recordBase(local) }
            return try applyLocally(change, because: error)
        }
        let (value, warnings) = result.value
        var outcome = EditOutcome(
            value: value, warnings: warnings, bytes: result.feed.bytes,
            publication: result.didUpload ? .published(attempts: result.attempts) : .alreadyPublished)
        (outcome.localFile, outcome.baseNotSaved) = try writeLocal(result.feed.bytes, readAs: local)
        return outcome
    }

    /// Applies `change` to a file that holds changes not yet published (saved when an upload failed, or
    /// made by hand), then syncs: the earlier changes and this one are merged into the remote feed and
    /// uploaded together, each once. When the sync fails or is refused, the change stays saved in the file.
    private func publishWithPendingChanges<Value: Sendable>(
        _ change: @escaping @Sendable (inout Feed) throws -> Value
    ) async throws -> EditOutcome<Value> {
        let url = destination.feedURL
        let saved = try applyLocally(
            change, because: FeedSyncError.unpublishedLocalChanges(url: url, agreedBefore: true))
        do {
            let synced = try await sync(resolving: .none)
            var outcome = EditOutcome(
                value: saved.value, warnings: saved.warnings, bytes: synced.bytes,
                publication: synced.uploaded ? .published(attempts: 1) : .alreadyPublished)
            outcome.publishedEarlierChanges = true
            outcome.localFile = synced.localFile
            outcome.baseNotSaved = synced.baseNotSaved
            return outcome
        } catch let error as LocalFeedFileError {
            throw error
        } catch {
            return EditOutcome(
                value: saved.value, warnings: saved.warnings, bytes: saved.bytes,
                publication: .savedLocally(reason: error))
        }
    }

    /// Applies `change` to the file alone (under its lock, to the file as it is then), after publishing
    /// failed or was refused for `reason`.
    private func applyLocally<Value: Sendable>(
        _ change: (inout Feed) throws -> Value, because reason: any Error
    ) throws -> EditOutcome<Value> {
        do {
            return try file.update { current in
                var feed = Feed(bytes: current)
                let (value, warnings) = try feed.applyChecked(change)
                let outcome = EditOutcome(
                    value: value, warnings: warnings, bytes: feed.bytes, publication: .savedLocally(reason: reason))
                return (outcome, feed.bytes)
            }
        } catch let error as LocalFeedFileError {
            throw error
        } catch {
            throw Self.refusal(error, url: nil)
        }
    }

    /// A change's own error, with a refusal for new format errors named as one.
    private static func refusal(_ error: any Error, url: URL?) -> any Error {
        guard let refused = error as? FeedChangeAddsErrors else { return error }
        return FeedSyncError.changeAddsErrors(refused.errors, url: url)
    }

    /// An error thrown by the change itself (not by publishing), passed through unchanged.
    private struct ChangeFailure: Error {
        /// What the change threw.
        let error: any Error
    }
}
