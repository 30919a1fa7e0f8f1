import HTTPCore

extension TootClient {
    /// Filters for an account's statuses.
    public struct StatusFilter: Sendable, Hashable {
        /// Leave out replies to other accounts (self-replies stay on Mastodon).
        public var excludeReplies: Bool
        /// Leave out reblogs.
        public var excludeReblogs: Bool
        /// Only pinned statuses.
        public var pinned: Bool

        /// Makes a filter.
        /// - Parameters:
        ///   - excludeReplies: leave out replies to others.
        ///   - excludeReblogs: leave out reblogs.
        ///   - pinned: only pinned statuses.
        public init(excludeReplies: Bool = false, excludeReblogs: Bool = false, pinned: Bool = false) {
            self.excludeReplies = excludeReplies
            self.excludeReblogs = excludeReblogs
            self.pinned = pinned
        }

        /// The query items.
        var query: [(String, String)] {
            var items: [(String, String)] = []
            if excludeReplies { items.append(("exclude_replies", "true")) }
            if excludeReblogs { items.append(("exclude_reblogs", "true")) }
            if pinned { items.append(("pinned", "true")) }
            return items
        }
    }

    /// One page of an account's statuses, newest first as the server sends it, with its `Link` cursors.
    /// - Parameters:
    ///   - accountID: the account's local ID.
    ///   - page: the cursors.
    ///   - filter: the filters.
    /// - Returns: the page.
    /// - Throws: ``TootClientError``.
    public func accountStatuses(
        accountID: String, page: PageRequest = PageRequest(), filter: StatusFilter = StatusFilter()
    )
        async throws -> TootResponse<[Status]>
    {
        try await fetch(
            TootRequest(
                method: .get, path: ["api", "v1", "accounts", accountID, "statuses"], query: page.query + filter.query))
    }

    /// Every status newer than `cursor`, oldest first, page by page with `min_id` until a page comes back
    /// empty (not merely short: GoToSocial's pages can be short while more follow). Each page is sorted
    /// oldest first before `body` sees it.
    /// - Parameters:
    ///   - accountID: the account's local ID.
    ///   - cursor: the newest status already handled, or `nil` for the account's oldest.
    ///   - limit: page size; 40 by default.
    ///   - filter: the filters.
    ///   - body: called for each status in order; persist the cursor (the status's ID) here.
    /// - Returns: the new cursor: the newest status seen, or `cursor` when there was none.
    /// - Throws: ``TootClientError``, or what `body` throws.
    @discardableResult
    public func forEachNewStatus(
        accountID: String, after cursor: String?, limit: Int = 40, filter: StatusFilter = StatusFilter(),
        _ body: (Status) async throws -> Void
    ) async throws -> String? {
        var current = cursor
        var seen = Set<String>()
        while true {
            let page = try await accountStatuses(
                accountID: accountID, page: PageRequest(minID: current ?? "0", limit: limit), filter: filter)
            let fresh = Self.oldestFirst(page.value).filter { seen.insert($0.id).inserted }
            guard !fresh.isEmpty else { return current }
            for status in fresh { try await body(status) }
            current = page.links.previous?.minID ?? fresh.last?.id
        }
    }

    /// `statuses` oldest first: by creation time, then by ID (length, then text, as Mastodon's IDs sort).
    /// - Parameter statuses: a page.
    /// - Returns: the sorted page.
    public static func oldestFirst(_ statuses: [Status]) -> [Status] {
        statuses.sorted { left, right in
            if left.createdAt != right.createdAt { return left.createdAt < right.createdAt }
            return (left.id.count, left.id) < (right.id.count, right.id)
        }
    }

    /// The account for `acct` (`GET /api/v1/accounts/lookup`, 3.4+).
    /// - Parameter acct: `user` or `user@domain`.
    /// - Returns: the account.
    /// - Throws: ``TootClientError/notFound(url:message:)``.
    public func lookupAccount(acct: String) async throws -> Account {
        try await fetch(TootRequest(method: .get, path: ["api", "v1", "accounts", "lookup"], query: [("acct", acct)]))
            .value
    }

    /// One page of notifications, newest first (`GET /api/v1/notifications`), by default mentions only.
    /// - Parameters:
    ///   - types: the types wanted (`mention`, `reblog`, …); all when empty.
    ///   - page: the cursors.
    /// - Returns: the page with its `Link` cursors.
    /// - Throws: ``TootClientError``.
    public func notifications(types: [String] = ["mention"], page: PageRequest = PageRequest()) async throws
        -> TootResponse<[TootNotification]>
    {
        try await fetch(
            TootRequest(
                method: .get, path: ["api", "v1", "notifications"], query: types.map { ("types[]", $0) } + page.query))
    }

    /// Every notification newer than `cursor`, oldest first, paging with `min_id` until an empty page.
    /// - Parameters:
    ///   - types: the types wanted; mentions by default.
    ///   - cursor: the newest notification already handled.
    ///   - limit: page size.
    ///   - body: called for each notification in order.
    /// - Returns: the new cursor.
    /// - Throws: ``TootClientError``, or what `body` throws.
    @discardableResult
    public func forEachNewNotification(
        types: [String] = ["mention"], after cursor: String?, limit: Int = 40,
        _ body: (TootNotification) async throws -> Void
    ) async throws -> String? {
        var current = cursor
        var seen = Set<String>()
        while true {
            let page = try await notifications(types: types, page: PageRequest(minID: current ?? "0", limit: limit))
            let fresh = page.value.sorted { left, right in
                if left.createdAt != right.createdAt { return left.createdAt < right.createdAt }
                return (left.id.count, left.id) < (right.id.count, right.id)
            }.filter { seen.insert($0.id).inserted }
            guard !fresh.isEmpty else { return current }
            for notification in fresh { try await body(notification) }
            current = page.links.previous?.minID ?? fresh.last?.id
        }
    }
}
