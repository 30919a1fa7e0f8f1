import Foundation

/// A group this relay enables: its display name (from `--groups`) and slug (`relay-api.md` §2.12).
package struct ConfiguredGroup: Sendable, Hashable {
    /// The display name, as configured.
    package var name: String
    /// The slug: lower-cased, spaces turned into `-`.
    package var slug: String

    /// Makes a group from its display name.
    package init(name: String) {
        self.name = name
        self.slug = Self.slug(of: name)
    }

    /// The slug of a group name as the reference relay computes it: lower-cased, each space turned into `-`.
    package static func slug(of name: String) -> String {
        name.lowercased().replacingOccurrences(of: " ", with: "-")
    }
}

/// The messages of one group as newest-first trees, and its members (`/groups/{slug}/`).
package struct GroupMessages: Sendable, Hashable {
    /// The group.
    package var group: ConfiguredGroup
    /// The messages whose parent is not in the group, newest first, each with its replies.
    package var threads: [GroupThread]
    /// The members' feeds, most recently updated first.
    package var members: [String]

    /// Makes the messages.
    package init(group: ConfiguredGroup, threads: [GroupThread], members: [String]) {
        self.group = group
        self.threads = threads
        self.members = members
    }
}

/// One group message with the group replies below it.
package struct GroupThread: Sendable, Hashable {
    /// The message.
    package var post: String
    /// Its replies in the group, newest first.
    package var replies: [GroupThread]

    /// Makes a node.
    package init(post: String, replies: [GroupThread]) {
        self.post = post
        self.replies = replies
    }
}
