import Crypto
import Foundation
public import OrgSocial
import OrgSocialText
public import TootClient

/// `orgsocial bridge push`: mirrors a feed's posts to one Mastodon-API account (the Org → Mastodon direction).
///
/// New posts go oldest first, at most ``PushOptions/maxNewPosts`` per run, from when the account was added
/// (or ``PushOptions/since``, or all of them); changed posts are edited (media and poll sent again),
/// removed posts deleted (every part). The state file is written right after each successful API call,
/// so a run stopped at any point resumes without a duplicate. Every creation carries an `Idempotency-Key`
/// made from the account, the post's URL and the part; after an ambiguous failure (a lost answer, a 5xx),
/// and before the first creation of a run, the account's latest statuses made by the bridge's app are
/// compared with what is about to be sent (`StatusFingerprint`), so a status the server already has is
/// mapped instead of posted again — also after the state file was lost.
///
/// ```swift
/// let pusher = BridgePusher(state: state, client: client.authorized(token).configured(with: account.server))
/// let report = try await pusher.push(account: account, feed: feed, feedURL: url, options: PushOptions())
/// ```
public struct BridgePusher: Sendable {
    /// The state file.
    public let state: BridgeState
    /// A client for the account: authorized, and configured with its server profile.
    public let client: TootClient

    /// Makes a pusher.
    /// - Parameters:
    ///   - state: the state file.
    ///   - client: the account's client (token and server profile set).
    public init(state: BridgeState, client: TootClient) {
        self.state = state
        self.client = client
    }

    /// Pushes `feed` to `account`.
    /// - Parameters:
    ///   - account: the account, as the state file has it.
    ///   - feed: the feed as read now.
    ///   - feedURL: the URL the feed is published at (the state's name for it, and the base of post URLs).
    ///   - options: the options.
    /// - Returns: what was done, post by post; refused posts are entries with ``PushEntry/Action/fail``.
    /// - Throws: ``BridgeError`` for the state file; a `TootClientError` that stops the run (the
    ///   network, a 5xx, a rate limit beyond the wait, a bad token): what was done before it is recorded.
    public func push(account: BridgeAccount, feed: Feed, feedURL: String, options: PushOptions) async throws
        -> PushReport
    {
        var run = PushRun(
            pusher: self, account: account, feedURL: feedURL, options: options,
            planner: PushPlanner(feedURL: feedURL, server: account.server, options: options))
        try await run.load()
        try await run.pushPosts(of: feed)
        if options.onlyPostIDs == nil {
            try await run.syncPin(feed.profile.pinned)
            try await run.removeDeleted(keeping: Set(feed.posts.compactMap(\.id)), feedHasPosts: !feed.posts.isEmpty)
        }
        let sent = run.entries.filter { [.create, .recover, .reblog, .favourite].contains($0.action) }.map(\.postID)
        if !options.dryRun,
            let newest = sent.max(by: {
                OrgTimestamp($0).sortInstant ?? .distantPast < OrgTimestamp($1).sortInstant ?? .distantPast
            })
        {
            try await state.setCursor(
                SyncCursor(
                    feed: feedURL, account: account.name, direction: .push, value: newest, updatedAt: options.now()))
        }
        return PushReport(account: account.name, feed: feedURL, dryRun: options.dryRun, entries: run.entries)
    }

    /// The `Idempotency-Key` of one part of one post on one account: stable across runs and processes.
    /// - Parameters:
    ///   - account: the account's name.
    ///   - postURL: the post's URL.
    ///   - part: the part's index.
    /// - Returns: the key (32 hexadecimal digits).
    public static func idempotencyKey(account: String, postURL: String, part: Int) -> String {
        String(SHA256.hexHash(Array("orgsocial-bridge|\(account)|\(postURL)|\(part)".utf8)).prefix(32))
    }
}

/// One run of ``BridgePusher/push(account:feed:feedURL:options:)``: what is mapped, what was done.
private struct PushRun {
    let pusher: BridgePusher
    let account: BridgeAccount
    let feedURL: String
    let options: PushOptions
    let planner: PushPlanner
    /// The mappings of this (feed, account), by post ID.
    var mappings: [String: PostMapping] = [:]
    /// The favourites, reblogs and pins recorded, by post ID.
    var actions: [String: [PushAction]] = [:]
    /// Posts a dry run would create, with placeholder status IDs, so later replies see them mirrored.
    var planned: [String: [String]] = [:]
    /// The account's latest statuses made by the bridge and not mapped, loaded before the first creation.
    var recoverable: [Status]?
    /// The entries so far.
    var entries: [PushEntry] = []
    /// New posts handled this run.
    var created = 0

    var state: BridgeState { pusher.state }
    var client: TootClient { pusher.client }

    mutating func load() async throws {
        for mapping in try await state.mappings(feed: feedURL, account: account.name) {
            mappings[mapping.postID] = mapping
        }
        for action in try await state.actions(feed: feedURL, account: account.name) {
            actions[action.postID, default: []].append(action)
        }
    }

    /// The statuses a post of the feed is mirrored as.
    func statusIDs(_ postID: String) -> [String]? {
        mappings[postID].map { $0.parts.map(\.statusID) } ?? planned[postID]
    }

    // MARK: - Posts

    mutating func pushPosts(of feed: Feed) async throws {
        let threshold = options.all ? nil : (options.since ?? account.addedAt)
        for post in feed.postsSortedByDate(newestFirst: false) {
            try Task.checkCancellation()
            guard let postID = post.id, options.onlyPostIDs?.contains(postID) ?? true else { continue }
            let mapping = mappings[postID]
            if mapping?.origin == .account { continue }
            let isRecent = threshold.map { (post.instant ?? .distantPast) >= $0 } ?? true
            let isDone = actions[postID]?.contains { $0.kind != .pin } ?? false
            guard mapping != nil || isRecent, !isDone else { continue }
            let decision = planner.decide(post) { statusIDs($0) }
            switch decision {
            case .skip(_, let reason):
                if mapping == nil { entries.append(PushEntry(postID: postID, action: .skip, reason: reason)) }
            case .statuses(let plan):
                if let mapping {
                    try await update(mapping, to: plan)
                } else if created < options.maxNewPosts {
                    created += 1
                    try await create(plan)
                }
            case .reblog(_, let statusID), .favourite(_, let statusID):
                guard mapping == nil, created < options.maxNewPosts else { continue }
                created += 1
                let kind: PushActionKind
                if case .reblog = decision { kind = .reblog } else { kind = .favourite }
                try await act(kind, postID: postID, statusID: statusID)
            }
        }
    }

    /// Reblogs or favourites a status, and records it.
    mutating func act(_ kind: PushActionKind, postID: String, statusID: String) async throws {
        let action: PushEntry.Action = kind == .reblog ? .reblog : .favourite
        if !options.dryRun {
            do {
                if kind == .reblog {
                    _ = try await client.reblog(id: statusID)
                } else {
                    _ = try await client.favourite(id: statusID)
                }
            } catch let error as TootClientError where !error.stopsTheRun {
                entries.append(PushEntry(postID: postID, action: .fail, reason: error.localizedDescription))
                return
            }
            let record = PushAction(
                feed: feedURL, account: account.name, postID: postID, kind: kind, statusID: statusID)
            try await state.saveAction(record)
            actions[postID, default: []].append(record)
        }
        entries.append(PushEntry(postID: postID, action: action, statusIDs: [statusID]))
    }

    // MARK: - Creating

    mutating func create(_ plan: PostPlan) async throws {
        if options.dryRun {
            planned[plan.postID] = plan.parts.indices.map { "planned-\(plan.postID)-\($0)" }
            entries.append(PushEntry(postID: plan.postID, action: .create, statuses: plan.parts))
            return
        }
        do {
            let (mapping, recovered) = try await createParts(plan, after: [], mediaIDs: nil)
            mappings[plan.postID] = mapping
            entries.append(
                PushEntry(
                    postID: plan.postID, action: recovered ? .recover : .create, statuses: plan.parts,
                    statusIDs: mapping.parts.map(\.statusID)))
        } catch let error as TootClientError where !error.stopsTheRun {
            entries.append(PushEntry(postID: plan.postID, action: .fail, reason: error.localizedDescription))
        }
    }

    /// Posts the parts of `plan` from `existing.count` on, saving the mapping after each; returns it and
    /// whether every part was found on the account rather than posted.
    mutating func createParts(_ plan: PostPlan, after existing: [StatusPart], mediaIDs known: [String]?)
        async throws -> (PostMapping, Bool)
    {
        var parts = existing
        var mediaIDs = known ?? mappings[plan.postID]?.mediaIDs ?? []
        var pollID = mappings[plan.postID]?.pollID
        var recoveredAll = true
        for index in existing.count..<plan.parts.count {
            let part = plan.parts[index]
            let parent = index == 0 ? plan.inReplyToID : parts[index - 1].statusID
            let status: Status
            if let found = try await takeRecoverable(part, inReplyTo: parent) {
                status = found
            } else {
                recoveredAll = false
                if index == 0, known == nil { mediaIDs = try await upload(plan.images) }
                if index == 0, mediaIDs.isEmpty, plan.poll == nil, !account.server.platform.supports(.textOnlyPosts) {
                    throw TootClientError.unsupported(feature: .textOnlyPosts, platform: account.server.platform.name)
                }
                var draft = StatusDraft(
                    text: part.text, spoilerText: part.spoilerText.isEmpty ? nil : part.spoilerText,
                    language: plan.language, inReplyToID: parent, mediaIDs: index == 0 ? mediaIDs : [],
                    poll: index == 0 ? plan.poll : nil)
                if plan.isDirect { draft.visibility = .direct }
                let posted = try await post(
                    draft, key: BridgePusher.idempotencyKey(account: account.name, postURL: plan.postURL, part: index))
                status = try await catchUp(posted, with: draft)
            }
            if index == 0 { pollID = status.poll?.id ?? pollID }
            parts.append(StatusPart(statusID: status.id, url: status.url.flatMap { URL(string: $0) }))
            let isLast = index == plan.parts.count - 1
            let mapping = PostMapping(
                feed: feedURL, account: account.name, postID: plan.postID, parts: parts,
                contentHash: isLast ? plan.contentHash : Self.partialPrefix + plan.contentHash, origin: .feed,
                mediaIDs: mediaIDs, pollID: pollID)
            try await state.saveMapping(mapping)
            mappings[plan.postID] = mapping
        }
        guard let mapping = mappings[plan.postID] else {
            throw BridgeError.invalidValue("post \(plan.postID) has no status to map")
        }
        return (mapping, recoveredAll && existing.isEmpty)
    }

    /// `status` edited to `draft` when the server answered an earlier version: a key sent again after the
    /// post changed (a run killed between the call and the state write) returns the status made the
    /// first time.
    func catchUp(_ status: Status, with draft: StatusDraft) async throws -> Status {
        guard let content = status.content,
            StatusFingerprint.ofHTML(content) != StatusFingerprint.ofText(draft.text)
                || (status.spoilerText ?? "") != (draft.spoilerText ?? "")
        else { return status }
        var edit = draft
        edit.inReplyToID = nil
        edit.visibility = nil
        return try await client.editStatus(id: status.id, edit)
    }

    /// The content hash of a mapping whose post is not completely posted yet starts with this.
    static let partialPrefix = "partial:"

    /// Posts a status; after an ambiguous failure, looks for it on the account before trying again.
    mutating func post(_ draft: StatusDraft, key: String) async throws -> Status {
        var attempts = 0
        while true {
            do {
                return try await client.postStatus(draft, idempotencyKey: key)
            } catch let error as TootClientError where error.isAmbiguous {
                attempts += 1
                recoverable = nil
                let part = PlannedStatus(text: draft.text, spoilerText: draft.spoilerText ?? "", characters: 0)
                if let found = try await takeRecoverable(part, inReplyTo: draft.inReplyToID) { return found }
                if attempts >= 3 { throw error }
            }
        }
    }

    /// An unmapped status of the bridge's app on the account with the part's text, taken out of the list.
    mutating func takeRecoverable(_ part: PlannedStatus, inReplyTo parent: String?) async throws -> Status? {
        if recoverable == nil { recoverable = try await loadRecoverable() }
        let text = StatusFingerprint.ofText(part.text)
        let spoiler = StatusFingerprint.ofText(part.spoilerText)
        guard
            let index = recoverable?.firstIndex(where: { status in
                StatusFingerprint.ofHTML(status.content ?? "") == text
                    && StatusFingerprint.ofText(status.spoilerText ?? "") == spoiler
                    && (parent == nil || status.inReplyToId == parent)
            })
        else { return nil }
        return recoverable?.remove(at: index)
    }

    /// The account's latest statuses (two pages of 40) posted by the bridge's app and not mapped, oldest first.
    func loadRecoverable() async throws -> [Status] {
        let me = try await client.verifyCredentials()
        var mapped = Set<String>()
        for mapping in mappings.values { mapped.formUnion(mapping.parts.map(\.statusID)) }
        var found: [Status] = []
        var page = PageRequest(limit: 40)
        for _ in 0..<2 {
            let response = try await client.accountStatuses(
                accountID: me.id, page: page, filter: TootClient.StatusFilter(excludeReblogs: true))
            found += response.value.filter {
                $0.application?.name == BridgeIdentity.applicationName && !mapped.contains($0.id)
            }
            guard response.value.count == 40, let older = response.links.next?.maxID else { break }
            page = PageRequest(maxID: older, limit: 40)
        }
        return found.sorted { $0.createdAt < $1.createdAt }
    }

    /// Uploads the images `options.loadImage` can read; those it cannot are left as links.
    func upload(_ images: [OrgImageTarget]) async throws -> [String] {
        guard let load = options.loadImage else { return [] }
        var ids: [String] = []
        for image in images {
            guard let file = try? await load(image) else { continue }
            let media = try await client.uploadMedia(
                file.bytes, filename: file.filename, mimeType: file.mimeType, description: image.description)
            ids.append(media.id)
        }
        return ids
    }

    // MARK: - Editing

    mutating func update(_ mapping: PostMapping, to plan: PostPlan) async throws {
        if mapping.contentHash == plan.contentHash { return }
        if mapping.contentHash == Self.partialPrefix + plan.contentHash {
            if options.dryRun {
                entries.append(
                    PushEntry(postID: plan.postID, action: .create, statuses: Array(plan.parts[mapping.parts.count...]))
                )
                return
            }
            do {
                let (done, _) = try await createParts(plan, after: mapping.parts, mediaIDs: mapping.mediaIDs)
                entries.append(
                    PushEntry(
                        postID: plan.postID, action: .create, statuses: plan.parts,
                        statusIDs: done.parts.map(\.statusID)))
            } catch let error as TootClientError where !error.stopsTheRun {
                entries.append(PushEntry(postID: plan.postID, action: .fail, reason: error.localizedDescription))
            }
            return
        }
        if options.dryRun {
            entries.append(PushEntry(postID: plan.postID, action: .edit, statuses: plan.parts))
            return
        }
        do {
            let edited = try await edit(mapping, to: plan)
            entries.append(
                PushEntry(
                    postID: plan.postID, action: .edit, statuses: plan.parts, statusIDs: edited.parts.map(\.statusID)))
        } catch TootClientError.unsupported(.edits, let platform) {
            // Trying again would fail the same way: remember this version, so the post is not retried every run.
            var kept = mapping
            kept.contentHash = plan.contentHash
            try await state.saveMapping(kept)
            entries.append(
                PushEntry(
                    postID: plan.postID, action: .skip, statusIDs: mapping.parts.map(\.statusID),
                    reason: "\(platform) cannot edit statuses; the change stays in the feed only"))
        } catch let error as TootClientError where !error.stopsTheRun {
            entries.append(PushEntry(postID: plan.postID, action: .fail, reason: error.localizedDescription))
        }
    }

    /// Edits the parts both versions have, posts the new ones, deletes the surplus; saves after each call.
    mutating func edit(_ mapping: PostMapping, to plan: PostPlan) async throws -> PostMapping {
        var mediaIDs = mapping.mediaIDs
        if plan.images.count != mediaIDs.count { mediaIDs = try await upload(plan.images) }
        var pollID = mapping.pollID
        var current = mapping
        for index in 0..<min(mapping.parts.count, plan.parts.count) {
            let part = plan.parts[index]
            let draft = StatusDraft(
                text: part.text, spoilerText: part.spoilerText, language: plan.language,
                mediaIDs: index == 0 ? mediaIDs : [], poll: index == 0 ? plan.poll : nil)
            let status = try await client.editStatus(id: mapping.parts[index].statusID, draft)
            if index == 0 { pollID = status.poll?.id }
        }
        while current.parts.count > plan.parts.count {
            let last = current.parts.removeLast()
            try await deleteIgnoringGone(last.statusID)
            current.contentHash = Self.partialPrefix + plan.contentHash
            try await state.saveMapping(current)
        }
        current.mediaIDs = mediaIDs
        current.pollID = pollID
        mappings[plan.postID] = current
        if current.parts.count < plan.parts.count {
            return try await createParts(plan, after: current.parts, mediaIDs: mediaIDs).0
        }
        current.contentHash = plan.contentHash
        try await state.saveMapping(current)
        mappings[plan.postID] = current
        return current
    }

    // MARK: - Pin

    mutating func syncPin(_ pinnedPostID: String?) async throws {
        let pins = actions.values.flatMap { $0.filter { $0.kind == .pin } }
        let target = pinnedPostID.flatMap { mappings[$0]?.parts.first?.statusID }
        for pin in pins where pin.postID != pinnedPostID || pin.statusID != target {
            if !options.dryRun {
                do { _ = try await client.unpin(id: pin.statusID) } catch TootClientError.notFound {}
                try await state.removeAction(pin)
            }
            entries.append(PushEntry(postID: pin.postID, action: .unpin, statusIDs: [pin.statusID]))
        }
        guard let pinnedPostID, let target,
            !pins.contains(where: { $0.postID == pinnedPostID && $0.statusID == target })
        else { return }
        if !options.dryRun {
            do {
                _ = try await client.pin(id: target)
            } catch let error as TootClientError where !error.stopsTheRun {
                entries.append(PushEntry(postID: pinnedPostID, action: .fail, reason: error.localizedDescription))
                return
            }
            try await state.saveAction(
                PushAction(feed: feedURL, account: account.name, postID: pinnedPostID, kind: .pin, statusID: target))
        }
        entries.append(PushEntry(postID: pinnedPostID, action: .pin, statusIDs: [target]))
    }

    // MARK: - Deleting

    /// Deletes the statuses of posts no longer in the feed, and undoes their reblogs and favourites. An
    /// empty feed deletes nothing (a feed read as empty is more likely broken than emptied).
    mutating func removeDeleted(keeping postIDs: Set<String>, feedHasPosts: Bool) async throws {
        guard feedHasPosts else { return }
        for mapping in mappings.values.sorted(by: { $0.postID < $1.postID })
        where mapping.origin == .feed && !postIDs.contains(mapping.postID) {
            try Task.checkCancellation()
            if !options.dryRun {
                var current = mapping
                while let last = current.parts.last {
                    try await deleteIgnoringGone(last.statusID)
                    current.parts.removeLast()
                    if current.parts.isEmpty {
                        try await state.removeMapping(postID: mapping.postID, feed: feedURL, account: account.name)
                    } else {
                        try await state.saveMapping(current)
                    }
                }
                mappings[mapping.postID] = nil
            }
            entries.append(PushEntry(postID: mapping.postID, action: .delete, statusIDs: mapping.parts.map(\.statusID)))
        }
        for (postID, list) in actions.sorted(by: { $0.key < $1.key }) where !postIDs.contains(postID) {
            for action in list where action.kind != .pin {
                if !options.dryRun {
                    do {
                        if action.kind == .reblog {
                            _ = try await client.unreblog(id: action.statusID)
                        } else {
                            _ = try await client.unfavourite(id: action.statusID)
                        }
                    } catch TootClientError.notFound {}
                    try await state.removeAction(action)
                }
                entries.append(
                    PushEntry(
                        postID: postID, action: action.kind == .reblog ? .unreblog : .unfavourite,
                        statusIDs: [action.statusID]))
            }
        }
    }

    /// Deletes a status; one already gone counts as deleted.
    func deleteIgnoringGone(_ statusID: String) async throws {
        do { try await client.deleteStatus(id: statusID) } catch TootClientError.notFound {}
    }
}

extension TootClientError {
    /// Whether the request may have taken effect although no answer says so: a lost connection, a 5xx,
    /// an answer that could not be read.
    var isAmbiguous: Bool {
        switch self {
        case .network, .serverError, .invalidResponse: true
        default: false
        }
    }

    /// Whether the failure is not about one post but the run (the network, the server, the token, the
    /// rate limit): the run stops, and the next one carries on.
    var stopsTheRun: Bool {
        switch self {
        case .network, .serverError, .invalidResponse, .rateLimited, .unauthorized, .forbidden, .oauth,
            .invalidInstanceURL, .noMastodonAPI, .authorizationFailed:
            true
        case .notFound, .validationFailed, .httpError, .mediaNotProcessed, .unsupported: false
        }
    }
}
