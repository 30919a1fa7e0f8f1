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
        var condition = SQLCondition(query.includesInteractions ? "TRUE" : "p.content <> ''")
        if let feeds = query.feeds {
            guard !feeds.isEmpty else { return PostListPage(posts: [], total: 0) }
            let marks = Array(repeating: "?", count: feeds.count).joined(separator: ", ")
            condition = condition.and(SQLCondition("f.feed IN (\(marks))", feeds.map { $0 }))
        }
        if !query.languages.isEmpty {
            let marks = Array(repeating: "?", count: query.languages.count).joined(separator: ", ")
            condition = condition.and(SQLCondition("p.lang IN (\(marks))", query.languages.map { $0 }))
        }
        if let since = query.since {
            condition = condition.and(SQLCondition("p.created_at >= ?", [since.timeIntervalSince1970]))
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
        let rows = try session.rows(
            """
            SELECT \(Self.listedPostColumns) FROM \(postsWithProfile)
            WHERE \(condition.sql) ORDER BY \(newestFirst) LIMIT ? OFFSET ?
            """,
            condition.arguments + [query.perPage + 1, offset]
        ).map(listedPost)
        let posts = Array(rows.prefix(query.perPage))
        guard counted > bound else { return PostListPage(posts: posts, total: counted) }
        let estimate = try estimatedListTotal(feeds: query.feeds)
        return PostListPage(
            posts: posts, estimate: max(bound + 1, offset + posts.count, estimate), hasMore: rows.count > query.perPage)
    }

    /// About how many posts a list of more than the bound holds: every post of its feeds (or of the relay)
    /// in `post_counts`, interactions included, so at most that many (language and date filters are not
    /// counted).
    private func estimatedListTotal(feeds: [String]?) throws -> Int {
        var condition = SQLCondition("TRUE")
        if let feeds {
            let marks = Array(repeating: "?", count: feeds.count).joined(separator: ", ")
            condition = condition.and(
                SQLCondition("profile_id IN (SELECT id FROM profiles WHERE feed IN (\(marks)))", feeds.map { $0 }))
        }
        return try session.firstRow(
            "SELECT CAST(coalesce(sum(total), 0) AS BIGINT) FROM post_counts WHERE \(condition.sql)",
            condition.arguments)?
            .int(at: 0) ?? 0
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
