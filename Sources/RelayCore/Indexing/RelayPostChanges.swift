import OrgSocial

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

    /// Compares a feed's posts with the stored posts.
    /// - Parameters:
    ///   - feed: the feed as fetched, its posts already read (``RelayIndexableFeed/posts``).
    ///   - stored: the stored posts of its profile: row and hash by post ID.
    package init(feed: RelayIndexableFeed, stored: [String: (id: Int, hash: String)]) {
        var steps: [Step] = []
        var present = Set<String>()
        present.reserveCapacity(feed.posts.count)
        for post in feed.posts {
            present.insert(post.postID)
            if let row = stored[post.postID] {
                if row.hash != post.hash { steps.append(.update(post, rowID: row.id)) }
            } else {
                steps.append(.insert(post))
            }
        }
        self.steps = steps
        removedRowIDs = stored.compactMap { present.contains($0.key) ? nil : $0.value.id }
    }
}
