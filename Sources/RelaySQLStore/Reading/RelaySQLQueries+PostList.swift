import Foundation
package import RelayCore

extension RelaySQLQueries {
    /// The `SELECT` list (on `posts p` and its profile `f`) a ``RelayCore/ListedPost`` is read from by
    /// ``listedPost(_:)``.
    static let listedPostColumns = """
        f.feed, p.post_id, f.nick, p.content, p.lang, p.tags, p.client, p.reply_to, p.mood, p.group_slug,
        p.include, p.poll_end, p.poll_option, p.created_at
        """

    /// One page of the posts with non-blank content (or all, with `includesInteractions`) that `query`
    /// selects, newest first, in the order of every other newest-first list (instant, then id, then URL), so
    /// pages neither repeat nor skip a post.
    package func posts(_ query: PostListQuery) throws -> PostListPage {
        var filters = SQLCondition(query.includesInteractions ? "TRUE" : "p.content <> ''")
        if !query.languages.isEmpty {
            let marks = Array(repeating: "?", count: query.languages.count).joined(separator: ", ")
            filters = filters.and(SQLCondition("p.lang IN (\(marks))", query.languages.map { $0 }))
        }
        if let since = query.since {
            filters = filters.and(SQLCondition("p.created_at >= ?", [since.timeIntervalSince1970]))
        }
        var condition = filters
        if let feeds = query.feeds {
            guard !feeds.isEmpty else { return PostListPage(posts: [], total: 0) }
            condition = condition.and(SQLCondition("f.feed IN (\(Self.marks(feeds.count)))", feeds.map { $0 }))
        }
        // Counted up to the bound only: a list most posts are in would cost a scan of every post.
        let bound = SearchResults.exactTotalBound
        let counted =
            try session.firstRow(
                "SELECT count(*) FROM (SELECT 1 FROM \(postsWithProfile) WHERE \(condition.sql) LIMIT ?) AS listed",
                condition.arguments + [bound + 1])?
            .int(at: 0) ?? 0
        let offset = (query.page - 1) * query.perPage
        if counted <= bound, offset >= counted { return PostListPage(posts: [], total: counted) }
        let limit = query.perPage + 1
        var estimate = 0
        var rows: [ListedPost]?
        if counted > bound {
            estimate = try estimatedListTotal(feeds: query.feeds)
            if let feeds = query.feeds {
                rows = try newestRows(of: feeds, filters: filters, share: estimate, limit: limit, offset: offset)
            }
        }
        let found = try rows ?? listedRows(condition, limit: limit, offset: offset)
        let posts = Array(found.prefix(query.perPage))
        guard counted > bound else { return PostListPage(posts: posts, total: counted) }
        return PostListPage(
            posts: posts, estimate: max(bound + 1, offset + posts.count, estimate), hasMore: found.count > query.perPage
        )
    }

    /// `?, ?, …`, `count` times.
    private static func marks(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Up to `limit` posts matching `condition` from the `offset`-th on, newest first.
    private func listedRows(_ condition: SQLCondition, limit: Int, offset: Int) throws -> [ListedPost] {
        try session.rows(
            """
            SELECT \(Self.listedPostColumns) FROM \(postsWithProfile)
            WHERE \(condition.sql) ORDER BY \(newestFirst) LIMIT ? OFFSET ?
            """,
            condition.arguments + [limit, offset]
        ).map(listedPost)
    }

    /// The page of a long list of some feeds' posts, read from the newest posts of the relay in date order
    /// instead of sorting every post of the feeds (which no index orders by date): only the posts dated from
    /// the instant of the relay's `window`-th newest post on are sorted, `window` sized from the feeds' share
    /// of all posts (16 times the posts the page should need); `nil` when that window does not hold the
    /// whole page (the caller then sorts them all), so the page is exactly the full sort's.
    /// - Parameters:
    ///   - feeds: the feeds.
    ///   - filters: the other conditions on `p`.
    ///   - share: about how many posts the feeds hold.
    ///   - limit: the rows wanted.
    ///   - offset: the rows skipped.
    /// - Returns: `limit` rows, or `nil`.
    /// - Throws: what the store throws.
    private func newestRows(of feeds: [String], filters: SQLCondition, share: Int, limit: Int, offset: Int) throws
        -> [ListedPost]?
    {
        let all = try estimatedListTotal(feeds: nil)
        guard share > 0, all > 0 else { return nil }
        let expected = (Double(offset + limit) * Double(all) / Double(share)).rounded(.up)
        let window = 16 * expected
        guard window < Double(all) else { return nil }
        guard
            let since = try session.firstRow(
                "SELECT created_at FROM posts ORDER BY created_at DESC, post_id DESC LIMIT 1 OFFSET ?",
                [Int(window) - 1])
        else { return nil }
        // `+` keeps the feeds' term off the indexes, so the posts are read by date (`posts_created`).
        let condition = filters.and(SQLCondition("p.created_at >= ?", [try since.double(at: 0)])).and(
            SQLCondition(
                "+p.profile_id IN (SELECT id FROM profiles WHERE feed IN (\(Self.marks(feeds.count))))",
                feeds.map { $0 }))
        let rows = try listedRows(condition, limit: limit, offset: offset)
        return rows.count == limit ? rows : nil
    }

    /// About how many posts a list of more than the bound holds: every post of its feeds (or of the relay)
    /// in `post_counts`, interactions included, so at most that many (language and date filters are not
    /// counted).
    private func estimatedListTotal(feeds: [String]?) throws -> Int {
        var condition = SQLCondition("TRUE")
        if let feeds {
            condition = condition.and(
                SQLCondition(
                    "profile_id IN (SELECT id FROM profiles WHERE feed IN (\(Self.marks(feeds.count))))",
                    feeds.map { $0 }))
        }
        return try countedPosts(where: condition)
    }

    /// The posts at `urls`, whatever their content, in the order asked; unknown URLs left out. Each is one
    /// lookup by the unique `(profile_id, post_id)`, on the read's one connection.
    package func posts(at urls: [String]) throws -> [ListedPost] {
        var found: [String: ListedPost] = [:]
        for url in Set(urls) {
            guard let row = try RelayPostURL.row(at: url, columns: Self.listedPostColumns, in: session) else {
                continue
            }
            found[url] = try listedPost(row)
        }
        return urls.compactMap { found[$0] }
    }

    /// A post read from a row of ``listedPostColumns``.
    func listedPost(_ row: any SQLRow) throws -> ListedPost {
        ListedPost(
            feed: try row.string(at: 0), id: try row.string(at: 1), nick: try row.string(at: 2),
            content: try row.string(at: 3), lang: try row.string(at: 4),
            tags: try row.string(at: 5).split(whereSeparator: \.isWhitespace).map(String.init),
            client: try row.string(at: 6), replyTo: try row.text(at: 7), mood: try row.string(at: 8),
            group: try row.text(at: 9), include: try row.text(at: 10),
            pollEnd: try row.real(at: 11).map { Date(timeIntervalSince1970: $0) },
            pollOption: try row.text(at: 12), createdAt: Date(timeIntervalSince1970: try row.double(at: 13)))
    }
}
