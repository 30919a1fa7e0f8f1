public import Foundation
public import OrgSocial

/// Keeps a local feed file and its published copy together without losing a post: `sync` merges the
/// remote feed into the file three-way and publishes the result; `publish` uploads the file only when
/// that deletes nothing the file did not delete itself.
///
/// The base of every merge is the version *this file* last agreed on with the remote feed
/// (``MergeBaseStore``), never another copy's upload, so:
/// - a post the base lacks and the remote feed has is kept;
/// - a post is deleted from the remote feed only when this file had it (it is in the base) and no
///   longer has it;
/// - two posts added in two copies under the same ID are both kept, the local one moved to the next
///   free second (`FeedMerge.renamedPosts`).
///
/// ```swift
/// let sync = FeedSynchronizer(path: "social.org", destination: destination, publisher: publisher,
///                             bases: MergeBaseStore(environment: ProcessInfo.processInfo.environment))
/// let outcome = try await sync.sync(local, resolving: .none) { merged in try write(merged) }
/// print("adds \(outcome.toRemote.addedPosts), removes \(outcome.toRemote.deletedPosts) posts")
/// ```
public struct FeedSynchronizer: Sendable {
    /// The local feed file (the key of its base), written under its lock.
    public let file: LocalFeedFile
    /// The local feed file's path.
    public var path: String { file.path }
    /// Where the feed is published.
    public let destination: any PublishDestination
    /// The publisher that reads and writes it.
    public let publisher: FeedPublisher
    /// Where the bases are kept.
    public let bases: MergeBaseStore

    /// Makes a synchronizer.
    /// - Parameters:
    ///   - path: the local feed file.
    ///   - destination: where it is published.
    ///   - publisher: the publisher.
    ///   - bases: the merge bases.
    public init(path: String, destination: any PublishDestination, publisher: FeedPublisher, bases: MergeBaseStore) {
        self.init(file: LocalFeedFile(path: path), destination: destination, publisher: publisher, bases: bases)
    }

    /// Makes a synchronizer for a file whose lock settings are chosen by the caller.
    /// - Parameters:
    ///   - file: the local feed file.
    ///   - destination: where it is published.
    ///   - publisher: the publisher.
    ///   - bases: the merge bases.
    public init(
        file: LocalFeedFile, destination: any PublishDestination, publisher: FeedPublisher, bases: MergeBaseStore
    ) {
        self.file = file
        self.destination = destination
        self.publisher = publisher
        self.bases = bases
    }

    /// What ``sync(resolving:)`` or ``publish(_:force:)`` did.
    public struct Outcome: Sendable {
        /// The feed now in the file and at the URL.
        public let bytes: [UInt8]
        /// Whether there was no feed at the URL before.
        public let createdRemote: Bool
        /// Whether anything was uploaded.
        public let uploaded: Bool
        /// What the upload changed in the remote feed (empty when nothing was uploaded).
        public let toRemote: FeedMerge.Changes
        /// What the merge took from the remote feed into the file (empty for a publish).
        public let fromRemote: FeedMerge.Changes
        /// Conflicts settled with `FeedMerge.Resolution.ours` or `FeedMerge.Resolution.theirs`.
        public let settledConflicts: [FeedMergeConflict]
        /// Local posts moved to a free ID.
        public let renamedPosts: [FeedMerge.RenamedPost]
        /// What happened to the local file when the result was written to it: replaced, or, when it
        /// changed during the sync, merged with that change or left as the other writer made it.
        public var localFile: LocalFeedFile.Replacement = .replaced
        /// Why the new merge base could not be saved, if it could not (worth a warning).
        public var baseNotSaved: MergeBaseStoreError?
    }

    // MARK: - Sync

    /// Merges the remote feed into the file, uploads the result with `If-Match` (once more when the remote
    /// feed changes meanwhile) and writes it to the file; then records it as this file's base.
    ///
    /// When the merge stops on conflicts, nothing is written or uploaded, and the two versions shown are
    /// remembered: a conflict whose local version the user then edits, while the remote one stays as
    /// shown, is settled with the edit at the next sync.
    ///
    /// Refused, like ``publish(_:force:)``, when the file never agreed with the remote feed, both hold
    /// posts and they share none (another feed, or the wrong file): merging would publish one feed's posts
    /// into the other. When the merge differs from the remote feed only in the order of its posts, the
    /// remote's order is taken and nothing is uploaded, so two copies that order posts differently settle
    /// on one order instead of uploading theirs in turn. The file is written under its lock, and only if
    /// it still holds what was read; a change made to it during the sync is merged with the result
    /// (``LocalFeedFile/replace(expecting:with:)``).
    /// - Parameter resolution: what to do with conflicts.
    /// - Returns: What happened.
    /// - Throws: ``FeedSyncError``, ``OrgSocialClientError``, ``LocalFeedFileError``.
    public func sync(resolving resolution: FeedMerge.Resolution) async throws -> Outcome {
        let url = destination.feedURL
        let local = try file.read()
        for attempt in 1...2 {
            guard let remote = try await publisher.read(destination) else {
                do {
                    try await publisher.upload(local, to: destination, over: nil)
                } catch OrgSocialClientError.conflict where attempt == 1 {
                    continue
                }
                var outcome = Outcome(
                    bytes: local, createdRemote: true, uploaded: true,
                    toRemote: FeedMerge.Changes(from: .empty, to: Feed(bytes: local)), fromRemote: FeedMerge.Changes(),
                    settledConflicts: [], renamedPosts: [])
                outcome.baseNotSaved = recordBase(local)
                return outcome
            }
            if remote.feed.bytes == local {
                var outcome = Outcome(
                    bytes: local, createdRemote: false, uploaded: false, toRemote: FeedMerge.Changes(),
                    fromRemote: FeedMerge.Changes(), settledConflicts: [], renamedPosts: [])
                outcome.baseNotSaved = recordBase(local)
                return outcome
            }
            let base = agreedBase(remote: remote.feed)
            let localFeed = Feed(bytes: local)
            if base == nil { try checkRelated(remote.feed, with: localFeed) }
            let shown = bases.shownConflicts(ofFile: path, at: url).map {
                FeedMerge.ShownConflicts(ours: Feed(bytes: $0.ours), theirs: Feed(bytes: $0.theirs))
            }
            let merge = FeedMerge(
                base: base, ours: localFeed, theirs: remote.feed, shown: shown, resolving: resolution)
            guard var merged = merge.feed else {
                bases.recordShownConflicts(ours: local, theirs: remote.feed.bytes, ofFile: path, at: url)
                throw FeedSyncError.conflicts(merge.conflicts, url: url)
            }
            if merged.bytes != remote.feed.bytes, merged.hasSameContentIgnoringPostOrder(as: remote.feed) {
                merged = remote.feed
            }
            // Only what the merge took from the remote feed can bring errors in (two whole checks otherwise).
            if !merge.changesFromTheirs.isEmpty {
                try checkNoErrorsArrive(in: merged, into: localFeed)
            }
            let uploads = merged.bytes != remote.feed.bytes
            if uploads {
                do {
                    try await publisher.upload(merged.bytes, to: destination, over: remote)
                } catch OrgSocialClientError.conflict {
                    if attempt == 1 { continue }
                    throw FeedSyncError.remoteKeptChanging(url: url)
                }
            }
            var outcome = Outcome(
                bytes: merged.bytes, createdRemote: false, uploaded: uploads,
                toRemote: uploads ? FeedMerge.Changes(from: remote.feed, to: merged) : FeedMerge.Changes(),
                fromRemote: merge.changesFromTheirs, settledConflicts: merge.conflicts,
                renamedPosts: merge.renamedPosts)
            (outcome.localFile, outcome.baseNotSaved) = try writeLocal(merged.bytes, readAs: local)
            return outcome
        }
        throw FeedSyncError.remoteKeptChanging(url: url)
    }

    /// Writes `bytes`, which now are the remote feed, to the file if it still holds `local`, else merges
    /// them into it; records them as the base unless the file kept a conflicting change of its own (then
    /// the old base stays, so the next sync still sees what the remote feed gained).
    /// - Returns: what happened to the file, and why the base could not be saved, if it could not.
    func writeLocal(_ bytes: [UInt8], readAs local: [UInt8]) throws -> (LocalFeedFile.Replacement, MergeBaseStoreError?)
    {
        let replacement = bytes == local ? .replaced : try file.replace(expecting: local, with: bytes)
        if case .keptOtherChange = replacement { return (replacement, nil) }
        return (replacement, recordBase(bytes))
    }

    /// Records `bytes` as this file's base.
    /// - Returns: why it could not be saved, or `nil`.
    func recordBase(_ bytes: [UInt8]) -> MergeBaseStoreError? {
        do {
            try bases.record(bytes, ofFile: path, at: destination.feedURL)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Publish

    /// Uploads `local` in place of the remote feed, with `If-Match`, and records it as this file's base.
    ///
    /// Unless `force`, refused when the remote feed holds posts and shares none with `local` (another
    /// feed, or a new file), and when it changed since this file last agreed with it (uploading would
    /// undo changes made elsewhere, deleting posts this file never deleted), unless the upload only adds
    /// posts to it.
    /// - Parameters:
    ///   - local: the file's bytes.
    ///   - force: replace the remote feed whatever it holds.
    /// - Returns: What happened.
    /// - Throws: ``FeedSyncError``, ``OrgSocialClientError``.
    public func publish(_ local: [UInt8], force: Bool) async throws -> Outcome {
        let url = destination.feedURL
        let localFeed = Feed(bytes: local)
        let before: Feed
        let creates: Bool
        let remote = try await publisher.read(destination)
        if let remote {
            if remote.feed.bytes == local {
                var outcome = Outcome(
                    bytes: local, createdRemote: false, uploaded: false, toRemote: FeedMerge.Changes(),
                    fromRemote: FeedMerge.Changes(), settledConflicts: [], renamedPosts: [])
                outcome.baseNotSaved = recordBase(local)
                return outcome
            }
            if !force { try checkReplaceable(remote.feed, with: localFeed) }
            before = remote.feed
            creates = false
        } else {
            before = .empty
            creates = true
        }
        do {
            try await publisher.upload(local, to: destination, over: remote)
        } catch OrgSocialClientError.conflict {
            throw FeedSyncError.remoteKeptChanging(url: url)
        }
        var outcome = Outcome(
            bytes: local, createdRemote: creates, uploaded: true,
            toRemote: FeedMerge.Changes(from: before, to: localFeed), fromRemote: FeedMerge.Changes(),
            settledConflicts: [], renamedPosts: [])
        outcome.baseNotSaved = recordBase(local)
        return outcome
    }

    /// Throws ``FeedSyncError/remoteErrors(_:posts:url:)`` when `merged` has format errors `local` did not
    /// have: they came from the remote feed, and neither the file nor the upload should get them (a server
    /// that checks feeds would refuse the upload, and `check` of the file would show nothing).
    private func checkNoErrorsArrive(in merged: Feed, into local: Feed) throws {
        let validator = FeedValidator()
        let added = Diagnostic.added(before: validator.validate(local), after: validator.validate(merged))
            .filter { $0.severity == .error }
        guard !added.isEmpty else { return }
        let posts = added.map { error -> String in
            guard let post = merged.posts.last(where: { $0.line <= error.line }) else { return "" }
            let text = post.rawText
            return text.count > 300 ? String(text.prefix(300)) + "…" : text
        }
        throw FeedSyncError.remoteErrors(added, posts: posts, url: destination.feedURL)
    }

    /// Throws ``FeedSyncError/unrelatedFeed(url:remotePosts:)`` when the remote feed holds posts, `local`
    /// holds posts (unless `emptyLocalIsUnrelated`), and they share none, unless the remote feed is the
    /// untouched feed a host created at sign-up.
    private func checkRelated(_ remote: Feed, with local: Feed, emptyLocalIsUnrelated: Bool = false) throws {
        let url = destination.feedURL
        let remoteIDs = Set(remote.posts.compactMap(\.id))
        let localIDs = local.posts.compactMap(\.id)
        guard !remoteIDs.isEmpty, emptyLocalIsUnrelated || !localIDs.isEmpty, remoteIDs.isDisjoint(with: localIDs),
            !bases.isStartingFeed(remote.bytes, at: url)
        else { return }
        throw FeedSyncError.unrelatedFeed(url: url, remotePosts: remote.posts.count)
    }

    /// Throws unless uploading `local` over `remote` loses nothing made elsewhere.
    private func checkReplaceable(_ remote: Feed, with local: Feed) throws {
        let url = destination.feedURL
        try checkRelated(remote, with: local, emptyLocalIsUnrelated: true)
        let remoteIDs = Set(remote.posts.compactMap(\.id))
        let base = agreedBase(remote: remote)
        guard base?.bytes != remote.bytes else { return }
        // An upload that only adds posts to the remote feed undoes nothing, whatever happened there: the file
        // without the posts the remote feed lacks reads exactly as the remote feed.
        if let pruned = try? local.removingPosts(notIn: remoteIDs), pruned.hasSameContentIgnoringPostOrder(as: remote) {
            return
        }
        // Posts the upload would delete that this file never deleted: in the remote feed, not in the file,
        // and not in its base.
        let baseIDs = Set(base?.posts.compactMap(\.id) ?? [])
        let localIDs = Set(local.posts.compactMap(\.id))
        let removals = remoteIDs.subtracting(localIDs).subtracting(baseIDs).count
        throw FeedSyncError.remoteHasChangesElsewhere(
            url: url, agreedBefore: base != nil, changes: FeedMerge.Changes(from: base ?? .empty, to: remote),
            removals: removals)
    }

    // MARK: - Editing the published feed

    /// Whether a file holds changes its remote feed lacks.
    public enum LocalChanges: Sendable, Hashable {
        /// Nothing: the file is its base, or the remote feed has the same bytes (or does not exist).
        case none
        /// The file changed since it last agreed with the remote feed.
        case sinceLastAgreed
        /// The file never agreed with the remote feed and differs from it.
        case neverAgreed
    }

    /// Whether `local` holds changes that the remote feed lacks, so that replacing the file with the
    /// published feed (after an edit applied remotely) would lose them.
    /// - Parameter local: the file's bytes.
    /// - Returns: What the file holds that the remote feed lacks.
    /// - Throws: ``OrgSocialClientError`` when the remote feed cannot be read.
    public func unpublishedChanges(in local: [UInt8]) async throws -> LocalChanges {
        let base = bases.base(ofFile: path, at: destination.feedURL)
        if base == local { return .none }
        guard let remote = try await publisher.read(destination), remote.feed.bytes != local else {
            return .none
        }
        return base == nil ? .neverAgreed : .sinceLastAgreed
    }

    /// This file's base, or the remote feed itself when it is the untouched feed a host created at sign-up
    /// (nobody wrote it, so it may be replaced); `nil` when this file never agreed with the remote feed.
    private func agreedBase(remote: Feed) -> Feed? {
        if let bytes = bases.base(ofFile: path, at: destination.feedURL) { return Feed(bytes: bytes) }
        return bases.isStartingFeed(remote.bytes, at: destination.feedURL) ? remote : nil
    }
}

/// Why a sync or publish stopped before it changed anything.
public enum FeedSyncError: Error, Sendable, LocalizedError {
    /// Posts or keywords were changed differently in the file and in the remote feed.
    case conflicts([FeedMergeConflict], url: URL)
    /// The remote feed changed during each attempt to replace it.
    case remoteKeptChanging(url: URL)
    /// The remote feed changed since this file last agreed with it (or never agreed with it): uploading
    /// the file would undo `changes`, deleting `removals` posts this file never deleted.
    case remoteHasChangesElsewhere(url: URL, agreedBefore: Bool, changes: FeedMerge.Changes, removals: Int)
    /// The remote feed's posts have nothing in common with the file's: another feed, or a new file.
    case unrelatedFeed(url: URL, remotePosts: Int)
    /// An edit was to replace the file with the published feed, but the file holds changes the remote feed
    /// lacks: made since the file last agreed with it (`agreedBefore`), or in a file that never agreed.
    case unpublishedLocalChanges(url: URL, agreedBefore: Bool)
    /// An edit would add these format errors to the remote feed at `url`, or to the file when `url` is
    /// `nil`; nothing was changed.
    case changeAddsErrors([Diagnostic], url: URL?)
    /// The remote feed at `url` holds posts or keywords with these format errors (line numbers are the
    /// merged feed's), which a merge would bring into the file; `posts` quotes the post each one is in
    /// (empty for a keyword). Nothing was written or uploaded.
    case remoteErrors([Diagnostic], posts: [String], url: URL)

    /// What went wrong.
    public var errorDescription: String? {
        switch self {
        case .conflicts(let conflicts, let url):
            return "\(conflicts.count) post(s) or keyword(s) were changed differently here and at "
                + "\(url.absoluteString); nothing was written or published."
        case .remoteKeptChanging(let url):
            return "The feed at \(url.absoluteString) changed while it was being replaced; nothing was lost."
        case .remoteHasChangesElsewhere(let url, let agreedBefore, let changes, let removals):
            let state =
                agreedBefore
                ? "changed since this file last published or synced it"
                    + (changes.isEmpty ? "" : " (\(changes.counts) there)")
                : "differs from this file, which never published or synced it"
            let loss =
                removals > 0
                ? "uploading would delete \(removals) post(s) this file never deleted"
                : "uploading would undo what changed there"
            return "The feed at \(url.absoluteString) \(state); \(loss)."
        case .unrelatedFeed(let url, let remotePosts):
            return "None of the \(remotePosts) post(s) of the feed at \(url.absoluteString) is in this file: it "
                + "looks like another feed, or a new file."
        case .unpublishedLocalChanges(let url, let agreedBefore):
            let state =
                agreedBefore
                ? "has changes made since it last published to or synced with"
                : "was never published to or synced with, and differs from,"
            return "This file \(state) \(url.absoluteString); an edit applied there would replace them."
        case .remoteErrors(let errors, let posts, let url):
            let listed = zip(errors, posts).map { error, post in
                "\(error.message) [\(error.code)]"
                    + (post.isEmpty
                        ? ""
                        : ", in this post of the remote feed:\n"
                            + post.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(
                                separator: "\n"))
            }
            return "The feed at \(url.absoluteString) has \(errors.count) format error(s) that this file does not; "
                + "merging would bring them in, so nothing was written or published:\n"
                + listed.map { "  " + $0 }.joined(separator: "\n")
        case .changeAddsErrors(let errors, let url):
            let place = url.map { "the feed at \($0.absoluteString)" } ?? "this file"
            return "The change would add \(errors.count) format error(s) to \(place); nothing was changed: "
                + errors.map(\.description).joined(separator: "; ") + "."
        }
    }
}

extension FeedMerge.Changes {
    /// `1 post added, 0 edited, 0 deleted` (and `, keywords #+TITLE` when any changed).
    public var counts: String {
        var text =
            "\(addedPosts) post\(addedPosts == 1 ? "" : "s") added, \(editedPosts) edited, \(deletedPosts) deleted"
        if !keywords.isEmpty { text += ", keywords " + keywords.map { "#+\($0)" }.joined(separator: ", ") }
        return text
    }

    /// `adds 1, edits 0, removes 2 posts` (and `, keywords #+TITLE` when any changed).
    public var summary: String {
        var text = "adds \(addedPosts), edits \(editedPosts), removes \(deletedPosts) posts"
        if !keywords.isEmpty { text += ", keywords " + keywords.map { "#+\($0)" }.joined(separator: ", ") }
        return text
    }
}
