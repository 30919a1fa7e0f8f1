import Foundation
public import OrgSocial

extension FeedSynchronizer {
    /// What ``edit(_:writingLocal:_:)`` did with a change.
    public struct EditOutcome<Value: Sendable>: Sendable {
        /// Where the change went.
        public enum Publication: Sendable {
            /// Applied to the remote feed and uploaded, after `attempts` fetches (more than one when others
            /// wrote the feed in between), then written to the file.
            case published(attempts: Int)
            /// The remote feed already held the change; the file now has the remote feed's bytes.
            case alreadyPublished
            /// Publishing failed for `reason`; the change was applied to the file alone, so nothing is lost.
            case savedLocally(reason: any Error)
        }

        /// What the change returned (on the attempt that landed).
        public let value: Value
        /// The warnings the change added to the feed it was applied to.
        public let warnings: [Diagnostic]
        /// The feed now in the file.
        public let bytes: [UInt8]
        /// Where the change went.
        public let publication: Publication
    }

    /// Applies an edit to the published feed first, then to the file, so that both hold the same bytes;
    /// when publishing fails, to the file alone.
    ///
    /// The remote feed is fetched, changed by `change` (refused when the change adds format errors,
    /// `Feed.applyChecked(_:)`), uploaded with `If-Match` and retried from a fresh fetch when
    /// another writer got in first; the result replaces the file and becomes the merge base. The file
    /// must hold nothing the remote feed lacks, since it is replaced: otherwise
    /// ``FeedSyncError/unpublishedLocalChanges(url:agreedBefore:)`` is thrown before anything changes
    /// (sync first). When the remote feed cannot be read or written (the network, the server, the
    /// credentials), `change` is applied to `local` and written instead, and the outcome says why it
    /// was not published.
    ///
    /// ```swift
    /// let outcome = try await sync.edit(local, writingLocal: { try write($0) }) { feed in
    ///     feed.append(PostDraft(body: "Hello"))
    /// }
    /// if case .savedLocally(let reason) = outcome.publication { print("not published: \(reason)") }
    /// ```
    /// - Parameters:
    ///   - local: the file's bytes (the feed the change falls back to, and what is checked for unpublished
    ///     changes).
    ///   - writingLocal: writes the new bytes to the file; not called when the file would not change.
    ///   - change: the edit; it runs once per attempt, each time on fresh content.
    /// - Returns: What the change returned and where it went.
    /// - Throws: ``FeedSyncError/unpublishedLocalChanges(url:agreedBefore:)``,
    ///   ``FeedSyncError/changeAddsErrors(_:url:)`` when the change would add format errors (to the remote
    ///   feed, or to the file when it fell back to it), what `change` throws, and what `writingLocal` throws.
    public func edit<Value: Sendable>(
        _ local: [UInt8], writingLocal: ([UInt8]) throws -> Void,
        _ change: @escaping @Sendable (inout Feed) throws -> Value
    ) async throws -> EditOutcome<Value> {
        let url = destination.feedURL
        let result: PublishResult<(Value, [Diagnostic])>
        do {
            let unpublished = try await unpublishedChanges(in: local)
            if unpublished != .none {
                throw FeedSyncError.unpublishedLocalChanges(url: url, agreedBefore: unpublished == .sinceLastAgreed)
            }
            result = try await destination.publish(with: publisher, creating: Feed(bytes: local)) { feed in
                do {
                    return try feed.applyChecked(change)
                } catch {
                    throw ChangeFailure(error: error)
                }
            }
        } catch let failure as ChangeFailure {
            throw Self.refusal(failure.error, url: url)
        } catch let error as FeedSyncError {
            throw error
        } catch {
            return try Self.applyLocally(local, writingLocal: writingLocal, change, because: error)
        }
        try writingLocal(result.feed.bytes)
        recordAgreed(result.feed.bytes)
        let (value, warnings) = result.value
        return EditOutcome(
            value: value, warnings: warnings, bytes: result.feed.bytes,
            publication: result.didUpload ? .published(attempts: result.attempts) : .alreadyPublished)
    }

    /// Applies `change` to the file alone, after publishing failed for `reason`.
    private static func applyLocally<Value: Sendable>(
        _ local: [UInt8], writingLocal: ([UInt8]) throws -> Void, _ change: (inout Feed) throws -> Value,
        because reason: any Error
    ) throws -> EditOutcome<Value> {
        var feed = Feed(bytes: local)
        let (value, warnings): (Value, [Diagnostic])
        do {
            (value, warnings) = try feed.applyChecked(change)
        } catch {
            throw refusal(error, url: nil)
        }
        let bytes = feed.serialized()
        if bytes != local { try writingLocal(bytes) }
        return EditOutcome(value: value, warnings: warnings, bytes: bytes, publication: .savedLocally(reason: reason))
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
