import Foundation
import OrgSocial

// A mirror's answers in the shapes the reading commands already show: a thread as a local index builds
// one, a group's posts as a relay's group trees.

extension MirrorThread {
    /// The thread of the post asked for, as ``LocalIndex/thread(for:)`` builds one from feeds: the
    /// ancestors (oldest first) and the tree below the post, oldest first at each level, with replies only
    /// (reactions, boosts and votes without text are left out, and posts whose ID cannot be read).
    /// - Parameter postURL: the post asked for.
    /// - Returns: The ancestors and the tree, or `nil` when the post's ID cannot be read.
    public func localThread(asking postURL: String) -> (parents: [TimelinePost], thread: LocalIndex.ThreadNode)? {
        let (parents, focal) = focal(asking: postURL)
        func local(_ node: Node) -> LocalIndex.ThreadNode? {
            guard let entry = node.post.lookedUpEntry else { return nil }
            let replies = node.replies.filter { reply in
                guard let kind = reply.post.post?.kind else { return false }
                return kind == .reply || kind == .poll
            }
            .compactMap(local)
            .sorted { $0.entry.instant < $1.entry.instant }
            return LocalIndex.ThreadNode(entry: entry, replies: replies)
        }
        guard let thread = local(focal) else { return nil }
        return (parents.compactMap(\.lookedUpEntry), thread)
    }
}

extension MirrorNotification {
    /// The reader's post it is about: the post's `REPLY_TO`, else its `INCLUDE` (`nil` for a mention).
    public var target: String? {
        type == .mention ? nil : post.replyTo ?? post.include
    }
}

extension MirrorClient {
    /// The most pages of a group's posts read.
    static let groupPageLimit = 20

    /// A group's posts as trees, newest first, with its members (the feeds with a post in it), read from
    /// `groups/<slug>/` page after page (at most 2,000 posts), and each post as a timeline entry.
    /// - Parameter group: the group.
    /// - Returns: The messages as a relay's `/groups/<slug>/` gives them, and the entries by post URL.
    /// - Throws: ``OrgSocialClientError`` (a 404 problem for a group the mirror does not have).
    public func messages(in group: MirrorGroup) async throws -> (
        messages: RelayGroupMessages, entries: [String: TimelinePost]
    ) {
        var posts: [MirrorPost] = []
        var page = 1
        while true {
            let answer = try await self.posts(inGroup: group.slug, page: page, perPage: 100)
            posts += answer.items
            guard answer.hasMore, page < Self.groupPageLimit else { break }
            page += 1
        }
        let urls = Set(posts.map(\.url))
        var children: [String: [MirrorPost]] = [:]
        var roots: [MirrorPost] = []
        for post in posts {
            if let parent = post.replyTo, urls.contains(parent), parent != post.url {
                children[parent, default: []].append(post)
            } else {
                roots.append(post)
            }
        }
        var visited: Set<String> = []
        func node(_ post: MirrorPost) -> RelayThreadNode {
            visited.insert(post.url)
            let replies = (children[post.url] ?? []).filter { !visited.contains($0.url) }
            return RelayThreadNode(post: post.url, children: replies.map(node))
        }
        var members: [String] = []
        for post in posts where !members.contains(post.feedURL) { members.append(post.feedURL) }
        var entries: [String: TimelinePost] = [:]
        for post in posts { entries[post.url] = post.lookedUpEntry }
        return (RelayGroupMessages(group: group.name, members: members, posts: roots.map(node)), entries)
    }
}

extension MirrorPage where Item == MirrorPost {
    /// The page as a relay's search page, and each post as a found post (the mirror's answer holds the
    /// posts whole, so no feed need be read).
    /// - Parameters:
    ///   - page: the page asked for, when the mirror does not say.
    ///   - perPage: the page size asked for, when the mirror does not say.
    /// - Returns: The page of post URLs and the posts by URL.
    public func searchPage(asked page: Int, perPage: Int) -> (RelaySearchPage, [String: PostLookup.Outcome]) {
        var found: [String: PostLookup.Outcome] = [:]
        for item in items {
            found[item.url] = item.lookedUpEntry.map { .found($0) } ?? .failed("the mirror's post has no readable ID")
        }
        let shown = self.page ?? page
        let result = RelaySearchPage(
            posts: items.map(\.url), total: total ?? items.count, page: shown, perPage: self.perPage ?? perPage,
            hasNext: hasMore, hasPrevious: shown > 1)
        return (result, found)
    }
}
