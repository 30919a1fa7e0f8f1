package import OrgSocial

/// What indexing a feed changes among the posts stored for it, worked out once for both engines: the feed's
/// indexable posts against the stored IDs and hashes. The last occurrence of a duplicated ID wins, as the
/// reference overwrites the row for each one.
package struct RelayPostChanges: Sendable {
    /// One change to a stored post or a new one, in feed order.
    package enum Step: Sendable {
        /// A post the store does not hold yet.
        case insert(IndexedPost)
        /// A stored post (its row) whose hash changed.
        case update(IndexedPost, rowID: Int)
    }

    /// The inserts and updates, in the order the feed first names each post ID.
    package let steps: [Step]
    /// The rows of stored posts the feed no longer holds.
    package let removedRowIDs: [Int]

    /// Compares `feed` with the stored posts.
    /// - Parameters:
    ///   - feed: the feed as fetched.
    ///   - stored: the stored posts of its profile: row and hash by post ID.
    package init(feed: Feed, stored: [String: (id: Int, hash: String)]) {
        var order: [String] = []
        var parsedByID: [String: IndexedPost] = [:]
        for post in feed.posts {
            guard let indexed = IndexedPost(post) else { continue }
            if parsedByID.updateValue(indexed, forKey: indexed.postID) == nil { order.append(indexed.postID) }
        }
        var steps: [Step] = []
        for postID in order {
            guard let post = parsedByID[postID] else { continue }
            if let row = stored[postID] {
                if row.hash != post.hash { steps.append(.update(post, rowID: row.id)) }
            } else {
                steps.append(.insert(post))
            }
        }
        self.steps = steps
        removedRowIDs = stored.compactMap { parsedByID[$0.key] == nil ? $0.value.id : nil }
    }
}
