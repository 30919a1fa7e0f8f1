package import RelayCore

/// A post's URL, `<feed>#<post ID>`, derived from its profile's feed and its ID rather than stored
/// (migration 14, `relay/SCHEMA.md`): feed URLs are canonical and have no fragment, so a post URL splits
/// at its first `#` into the two, and a lookup by URL is one by the unique `(profile_id, post_id)`.
package enum RelayPostURL {
    /// The SQL expression of the URL of post `post` written by the profile `profile`.
    /// - Parameters:
    ///   - post: the alias of the `posts` row.
    ///   - profile: the alias of its `profiles` row.
    /// - Returns: The expression, in parentheses.
    package static func sql(post: String = "p", profile: String = "f") -> String {
        "(\(profile).feed || '#' || \(post).post_id)"
    }

    /// The first row of `columns` of the post at `url` (`posts p` joined to its profile `f`); `nil` when
    /// no post has that URL (or it has no `#`).
    /// - Parameters:
    ///   - url: the post URL.
    ///   - columns: the `SELECT` list, on `p` and `f`.
    ///   - session: the connection.
    /// - Returns: The row.
    /// - Throws: The engine's error.
    package static func row(at url: String, columns: String, in session: any SQLSession) throws -> (any SQLRow)? {
        guard let key = PostKey(url: url) else { return nil }
        return try row(of: key, columns: columns, in: session)
    }

    /// The first row of `columns` of the post `key` (`posts p` joined to its profile `f`).
    /// - Parameters:
    ///   - key: the post's feed and ID.
    ///   - columns: the `SELECT` list, on `p` and `f`.
    ///   - session: the connection.
    /// - Returns: The row, `nil` when there is no such post.
    /// - Throws: The engine's error.
    package static func row(of key: PostKey, columns: String, in session: any SQLSession) throws -> (any SQLRow)? {
        try session.firstRow(
            "SELECT \(columns) FROM posts p JOIN profiles f ON f.id = p.profile_id WHERE f.feed = ? AND p.post_id = ?",
            [key.feed, key.postID])
    }
}
