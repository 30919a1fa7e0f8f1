extension RelayListing {
    /// A group's messages as trees: a message replying to another message of the group hangs below it, every
    /// other message is a root; each list keeps the order of `posts` (newest first), and a cycle is cut where it
    /// closes.
    /// - Parameter posts: the group's messages with the post each replies to, newest first.
    /// - Returns: the roots with their replies.
    package static func groupThreads(_ posts: [(url: String, replyTo: String?)]) -> [GroupThread] {
        let inGroup = Set(posts.map(\.url))
        var children: [String: [String]] = [:]
        var roots: [String] = []
        for post in posts {
            if let parent = post.replyTo, inGroup.contains(parent), parent != post.url {
                children[parent, default: []].append(post.url)
            } else {
                roots.append(post.url)
            }
        }
        var visited = Set<String>()
        func node(_ url: String) -> GroupThread {
            visited.insert(url)
            let kids = (children[url] ?? []).filter { !visited.contains($0) }.map(node)
            return GroupThread(post: url, replies: kids)
        }
        return roots.map(node)
    }
}
