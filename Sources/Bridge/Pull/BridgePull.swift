public import Foundation
import OrgSocial
public import TootClient

/// What a pull takes from the command line.
public struct PullOptions: Sendable, Hashable {
    /// Where the first pull of an account starts.
    public enum Start: Sendable, Hashable {
        /// At the statuses made after the account was added (the default).
        case accountAdded
        /// At the statuses made at or after this moment (`--since DATE`).
        case since(Date)
        /// At the account's oldest status (`--all`).
        case all
    }

    /// Where the first pull starts; later pulls continue from the cursor.
    public var start: Start
    /// The most statuses added to the feed in one run (`--max`).
    public var maxStatuses: Int
    /// Whether to change nothing and only say what would be done (`--dry-run`).
    public var dryRun: Bool
    /// The zone post IDs and `POLL_END` are written in.
    public var timeZone: TimeZone
    /// Statuses per page asked of the server (40 is Mastodon's most).
    public var pageSize: Int

    /// Makes options.
    /// - Parameters:
    ///   - start: where the first pull starts.
    ///   - maxStatuses: the most statuses added per run; 20 by default.
    ///   - dryRun: change nothing.
    ///   - timeZone: the zone of post IDs.
    ///   - pageSize: statuses per page.
    public init(
        start: Start = .accountAdded, maxStatuses: Int = 20, dryRun: Bool = false, timeZone: TimeZone = .current,
        pageSize: Int = 40
    ) {
        self.start = start
        self.maxStatuses = maxStatuses
        self.dryRun = dryRun
        self.timeZone = timeZone
        self.pageSize = pageSize
    }
}

/// What a pull did with one status.
public struct PulledStatus: Sendable, Hashable, Codable {
    /// The outcome.
    public enum Action: String, Sendable, Hashable, Codable {
        /// Appended to the feed as a new post.
        case added
        /// Its post was rewritten after the status was edited.
        case edited
        /// Its post was removed after the status was deleted.
        case deleted
        /// Left out (``PulledStatus/reason`` says why).
        case skipped
    }

    /// The status's ID on the instance.
    public var statusID: String
    /// The status's page.
    public var url: String?
    /// The outcome.
    public var action: Action
    /// The post's ID in the feed (for a dry run, the ID it would get in an unchanged feed).
    public var postID: String?
    /// Why it was skipped.
    public var reason: String?
    /// The post's Org text as added or rewritten.
    public var text: String?
}

/// What a pull of one account did.
public struct PullReport: Sendable, Hashable {
    /// The bridge account's name.
    public var account: String
    /// The feed's key.
    public var feed: String
    /// Each status handled, in order.
    public var statuses: [PulledStatus]
    /// The pull cursor after the run.
    public var cursor: String?
    /// Whether this was a dry run.
    public var dryRun: Bool

    /// The counts for the run record.
    public var counts: RunCounts {
        RunCounts(
            edited: statuses.count { $0.action == .edited }, deleted: statuses.count { $0.action == .deleted },
            pulled: statuses.count { $0.action == .added })
    }
}

/// Mastodon → social.org for one account: the account's own statuses not made by the
/// bridge become posts of the feed, oldest first, at most ``PullOptions/maxStatuses`` per run; edits and
/// deletes of pulled statuses among the account's newest page follow.
///
/// Every step is recorded as it succeeds: the post is written to the feed, then its mapping, then the
/// cursor, so a run stopped anywhere loses nothing and doubles nothing (a post already in the feed with the
/// status's `:URL:` is adopted instead of added again, which also covers a lost state file). Statuses made by
/// push are never pulled: they are mapped, or their `application.name` is ``BridgeIdentity/applicationName``.
///
/// A pull with nothing new costs one request: the account's newest page (the account's own ID is kept in the
/// state after the first pull), and the feed is not touched.
public struct BridgePull: Sendable {
    /// The state file.
    public let state: BridgeState
    /// The feed pulled into.
    public let feed: any BridgeFeed
    /// The account pulled from.
    public let account: BridgeAccount
    /// An authorized client for the account's instance.
    public let client: TootClient
    /// The options.
    public var options: PullOptions
    /// The clock cursors are stamped with.
    public var now: @Sendable () -> Date

    /// Makes a pull.
    /// - Parameters:
    ///   - state: the state file.
    ///   - feed: the feed.
    ///   - account: the account.
    ///   - client: an authorized client for it.
    ///   - options: the options.
    ///   - now: the clock.
    public init(
        state: BridgeState, feed: any BridgeFeed, account: BridgeAccount, client: TootClient,
        options: PullOptions = PullOptions(), now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.state = state
        self.feed = feed
        self.account = account
        self.client = client
        self.options = options
        self.now = now
    }

    /// Thrown inside the paging loop once ``PullOptions/maxStatuses`` statuses were added.
    private struct ReachedMaximum: Error {}

    /// Runs the pull.
    /// - Returns: what it did.
    /// - Throws: `TootClientError`, ``BridgeError``, ``BridgeFeedError``, `OrgSocialClientError`.
    public func run() async throws -> PullReport {
        let me = try await ownAccount()
        var run = Progress(
            report: PullReport(account: account.name, feed: feed.key, statuses: [], cursor: nil, dryRun: options.dryRun)
        )
        run.report.cursor = try await state.cursor(.pull, feed: feed.key, account: account.name)?.value
        let newest = TootClient.oldestFirst(
            try await client.accountStatuses(accountID: me.id, page: PageRequest(limit: options.pageSize)).value)
        try await followEditsAndDeletes(window: newest, into: &run)
        do {
            if let cursor = run.report.cursor {
                if let index = newest.firstIndex(where: { $0.id == cursor }) {
                    for status in newest[(index + 1)...] { try await handle(status, me: me, into: &run) }
                } else if !newest.isEmpty {
                    try await pageForward(from: cursor, me: me, into: &run)
                }
            } else {
                switch options.start {
                case .all:
                    try await pageForward(from: nil, me: me, into: &run)
                case .accountAdded:
                    try await importBackward(after: account.addedAt, newest: newest, me: me, into: &run)
                case .since(let date):
                    try await importBackward(after: date, newest: newest, me: me, into: &run)
                }
            }
        } catch is ReachedMaximum {}
        return run.report
    }

    /// The report being built, and how many posts were added so far.
    private struct Progress {
        var report: PullReport
        var added = 0
    }

    // MARK: - New statuses

    /// Every status after `cursor` (or the account's oldest), page by page with `min_id`, oldest first.
    private func pageForward(from cursor: String?, me: (id: String, acct: String), into run: inout Progress)
        async throws
    {
        var progress = run
        defer { run = progress }
        try await client.forEachNewStatus(accountID: me.id, after: cursor, limit: options.pageSize) { status in
            try await handle(status, me: me, into: &progress)
        }
    }

    /// A first pull: the statuses made at or after `date`, found by paging back from the newest with `max_id`,
    /// then handled oldest first. When there are none, the cursor is set to the newest status, so the next pull
    /// starts there.
    private func importBackward(
        after date: Date, newest: [Status], me: (id: String, acct: String), into run: inout Progress
    ) async throws {
        var collected = newest.filter { $0.createdAt >= date }
        var page = newest
        var seen = Set(newest.map(\.id))
        while let oldest = page.first, oldest.createdAt >= date {
            let older = try await client.accountStatuses(
                accountID: me.id, page: PageRequest(maxID: oldest.id, limit: options.pageSize))
            page = TootClient.oldestFirst(older.value.filter { seen.insert($0.id).inserted })
            collected += page.filter { $0.createdAt >= date }
        }
        if collected.isEmpty {
            if let last = newest.last { try await moveCursor(to: last.id, into: &run) }
            return
        }
        for status in TootClient.oldestFirst(collected) { try await handle(status, me: me, into: &run) }
    }

    /// Handles one new status, then moves the cursor past it; stops the run at the maximum.
    private func handle(_ status: Status, me: (id: String, acct: String), into run: inout Progress) async throws {
        guard run.added < max(0, options.maxStatuses) else { throw ReachedMaximum() }
        let outcome = try await importStatus(status, me: me)
        run.report.statuses.append(outcome)
        if outcome.action == .added { run.added += 1 }
        try await moveCursor(to: status.id, into: &run)
    }

    /// Persists the pull cursor (not in a dry run).
    private func moveCursor(to id: String, into run: inout Progress) async throws {
        run.report.cursor = id
        guard !options.dryRun else { return }
        try await state.setCursor(
            SyncCursor(feed: feed.key, account: account.name, direction: .pull, value: id, updatedAt: now()))
    }

    /// Adds one status to the feed, or says why not.
    private func importStatus(_ status: Status, me: (id: String, acct: String)) async throws -> PulledStatus {
        let url = StatusImport.link(of: status)
        func skipped(_ reason: String) -> PulledStatus {
            PulledStatus(statusID: status.id, url: url, action: .skipped, reason: reason)
        }
        if let mapping = try await state.mapping(statusID: status.id, account: account.name) {
            return mapping.origin == .feed
                ? skipped("made by push from post \(mapping.postID)") : skipped("already in the feed")
        }
        if status.application?.name == BridgeIdentity.applicationName { return skipped("posted by the bridge") }
        switch status.visibility ?? .public {
        case .public, .unlisted: break
        case .private: return skipped("followers-only")
        case .direct: return skipped("a direct message")
        case .other(let name): return skipped("visibility '\(name)'")
        }
        guard let draft = try await draft(for: status, me: me) else {
            return skipped("a reply to someone else's status")
        }
        let tz = options.timeZone
        if options.dryRun {
            let id = OrgTimestamp.format(status.createdAt, timeZone: tz)
            return PulledStatus(
                statusID: status.id, url: url, action: .added, postID: id, text: draft.render(id: id))
        }
        let (postID, text) = try await feed.update { feed -> (String, String) in
            if let url,
                let existing = feed.posts.first(where: {
                    $0.value(of: StatusImport.urlProperty) == url && $0.client == BridgeIdentity.clientProperty
                }), let id = existing.id
            {
                return (id, existing.rawText)
            }
            let post = feed.append(draft, at: status.createdAt, timeZone: tz)
            return (post.id ?? "", post.rawText)
        }
        try await state.saveMapping(mapping(of: status, postID: postID))
        return PulledStatus(statusID: status.id, url: url, action: .added, postID: postID, text: text)
    }

    /// The post for a status; `nil` for a reply to someone else.
    private func draft(for status: Status, me: (id: String, acct: String)) async throws -> PostDraft? {
        if let original = status.reblog?.value {
            let include = try await reference(toStatus: original.id)
            return StatusImport.reblogDraft(of: status, include: include)
        }
        var replyTo: PostReference?
        if let parent = status.inReplyToId {
            replyTo = try await reference(toStatus: parent)
            // A reply in the account's own thread whose start was never bridged stays a post of its own.
            if replyTo == nil, status.inReplyToAccountId != me.id { return nil }
        }
        return StatusImport.draft(
            for: status, source: try await source(of: status), replyTo: replyTo, timeZone: options.timeZone)
    }

    /// The text as typed, when the server offers it (one request per status).
    private func source(of status: Status) async throws -> StatusSource? {
        guard account.server.platform.supports(.statusSource) else { return nil }
        do {
            return try await client.statusSource(id: status.id)
        } catch TootClientError.notFound, TootClientError.unsupported {
            return nil
        }
    }

    /// `<feed URL>#<post ID>` of the post a status maps to, when it maps to one and the feed's URL is known.
    private func reference(toStatus id: String) async throws -> PostReference? {
        guard let base = feed.publicURL,
            let mapping = try await state.mapping(statusID: id, account: account.name)
        else { return nil }
        return PostReference(feedURL: base.absoluteString, postID: mapping.postID)
    }

    /// The mapping recorded for a pulled status.
    private func mapping(of status: Status, postID: String) -> PostMapping {
        PostMapping(
            feed: feed.key, account: account.name, postID: postID,
            parts: [StatusPart(statusID: status.id, url: StatusImport.link(of: status).flatMap { URL(string: $0) })],
            contentHash: StatusImport.contentHash(of: status), origin: .account,
            mediaIDs: (status.mediaAttachments ?? []).map(\.id), pollID: status.poll?.id)
    }

    // MARK: - Edits and deletes

    /// Pulled statuses in the newest page whose content changed are rewritten in the feed; pulled statuses
    /// missing from it (but as new as its oldest) are checked one by one and removed once the server says
    /// they are gone.
    private func followEditsAndDeletes(window: [Status], into run: inout Progress) async throws {
        let pulled = try await state.mappings(feed: feed.key, account: account.name).filter { $0.origin == .account }
        guard !pulled.isEmpty else { return }
        var byStatus: [String: PostMapping] = [:]
        for mapping in pulled { for part in mapping.parts { byStatus[part.statusID] = mapping } }
        for status in window {
            guard let mapping = byStatus[status.id], mapping.contentHash != StatusImport.contentHash(of: status)
            else { continue }
            run.report.statuses.append(try await applyEdit(of: status, to: mapping))
        }
        let inWindow = Set(window.map(\.id))
        let oldest = window.first?.createdAt ?? .distantPast
        let candidates = pulled.filter { mapping in
            guard let statusID = mapping.parts.first?.statusID, !inWindow.contains(statusID) else { return false }
            return (OrgTimestamp(mapping.postID).instant ?? .distantPast) >= oldest
        }
        for mapping in candidates.prefix(20) {
            guard let statusID = mapping.parts.first?.statusID else { continue }
            do {
                _ = try await client.status(id: statusID)
            } catch TootClientError.notFound {
                run.report.statuses.append(try await applyDelete(of: statusID, mapping: mapping))
            }
        }
    }

    /// Rewrites the post of an edited status, keeping its ID, `REPLY_TO` and `INCLUDE`.
    private func applyEdit(of status: Status, to mapping: PostMapping) async throws -> PulledStatus {
        let url = StatusImport.link(of: status)
        let new: PostDraft
        if let original = status.reblog?.value {
            new = StatusImport.reblogDraft(of: status, include: try await reference(toStatus: original.id))
        } else {
            new = StatusImport.draft(
                for: status, source: try await source(of: status), replyTo: nil, timeZone: options.timeZone)
        }
        var result = PulledStatus(statusID: status.id, url: url, action: .edited, postID: mapping.postID)
        if options.dryRun {
            result.text = new.render(id: mapping.postID)
            return result
        }
        let postID = mapping.postID
        result.text = try await feed.update { feed -> String? in
            guard feed.posts.contains(where: { $0.id == postID }) else { return nil }
            try feed.updatePost(id: postID) { draft in
                draft.body = new.body
                draft.tags = new.tags
                draft.language = new.language
                draft.pollEnd = new.pollEnd
                if new.include != nil { draft.include = new.include }
            }
            return feed.posts.first { $0.id == postID }?.rawText
        }
        var updated = mapping
        updated.contentHash = StatusImport.contentHash(of: status)
        updated.mediaIDs = (status.mediaAttachments ?? []).map(\.id)
        updated.pollID = status.poll?.id
        try await state.saveMapping(updated)
        if result.text == nil { result.reason = "the post is no longer in the feed" }
        return result
    }

    /// Removes the post of a deleted status and forgets its mapping.
    private func applyDelete(of statusID: String, mapping: PostMapping) async throws -> PulledStatus {
        let result = PulledStatus(
            statusID: statusID, url: mapping.parts.first?.url?.absoluteString, action: .deleted, postID: mapping.postID)
        guard !options.dryRun else { return result }
        let postID = mapping.postID
        try await feed.update { feed in
            if feed.posts.contains(where: { $0.id == postID }) { try feed.deletePost(id: postID) }
        }
        try await state.removeMapping(postID: postID, feed: feed.key, account: account.name)
        return result
    }

    // MARK: - Identity

    /// The account's ID and `acct` on its instance: from the state, else `verify_credentials` (kept).
    private func ownAccount() async throws -> (id: String, acct: String) {
        if let known = try await state.remoteAccount(of: account.name) { return known }
        let me = try await client.verifyCredentials()
        if !options.dryRun { try await state.setRemoteAccount(id: me.id, acct: me.acct, of: account.name) }
        return (me.id, me.acct)
    }
}
