import Foundation

/// A group on a relay (§2.12).
public struct RelayGroup: Sendable, Hashable, Decodable {
    /// Its display name, e.g. "Org Social".
    public var name: String
    /// Its path on the relay, e.g. `/groups/org-social/`.
    public var href: String?

    /// The slug used in paths: the name lower-cased with spaces as `-` (§2.12).
    public var slug: String {
        if let href {
            let parts = href.split(separator: "/")
            if parts.count >= 2, parts[parts.count - 2] == "groups" { return String(parts[parts.count - 1]) }
        }
        return name.lowercased().replacingOccurrences(of: " ", with: "-")
    }

    /// Makes a group.
    /// - Parameters:
    ///   - name: the display name.
    ///   - href: its path, if known.
    public init(name: String, href: String? = nil) {
        self.name = name
        self.href = href
    }

    struct Links: Decodable {
        var groups: [RelayGroup]?
    }
}

/// A group's messages (§2.12).
public struct RelayGroupMessages: Sendable, Hashable {
    /// The group's display name (`meta.group`).
    public var group: String?
    /// The feeds with at least one post in the group.
    public var members: [String]
    /// The posts as trees, newest first (nodes have no moods).
    public var posts: [RelayThreadNode]

    struct Meta: Decodable {
        var group: String?
        var members: [String]?
    }
}

extension RelayGroupMessages {
    /// The group without the posts of blocked feeds (``TimelineOptions/blocks(postURL:)``): the replies to
    /// a blocked post stay, in its place; the members are kept as the relay listed them.
    ///
    /// ```swift
    /// let messages = try await relay.messages(in: RelayGroup(name: "Emacs"))
    /// let shown = messages.removingPosts(blockedBy: TimelineOptions(blockedFeeds: ["https://spam.example/social.org"]))
    /// ```
    ///
    /// - Parameter options: the options whose block list applies.
    /// - Returns: The messages with every blocked post left out.
    public func removingPosts(blockedBy options: TimelineOptions) -> RelayGroupMessages {
        var kept = self
        kept.posts = Self.removingPosts(posts, blockedBy: options)
        return kept
    }

    /// `nodes` without the posts of blocked feeds, each blocked post replaced by its replies.
    private static func removingPosts(_ nodes: [RelayThreadNode], blockedBy options: TimelineOptions)
        -> [RelayThreadNode]
    {
        nodes.flatMap { node -> [RelayThreadNode] in
            let children = removingPosts(node.children, blockedBy: options)
            guard !options.blocks(postURL: node.post) else { return children }
            var kept = node
            kept.children = children
            return [kept]
        }
    }
}
