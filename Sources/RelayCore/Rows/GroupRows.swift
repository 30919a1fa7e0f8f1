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

    /// The slug of the group a post's `:GROUP: <name> <relay URL>` puts it in on the relay named
    /// `relayHost`, or `nil` when it is in no group there.
    ///
    /// The name is the part before the first `http`, as the reference relay reads it (`relay-api.md`
    /// §2.12). The reference ignores the relay URL, so a post for a same-named group on another relay
    /// counts too; with `relayHost` (the relay's `--site-domain`) a post whose relay URL names another
    /// host is in none of this relay's groups. Hosts compare case-insensitively, without scheme, path or
    /// trailing slash.
    ///
    /// - Parameters:
    ///   - value: The property's value.
    ///   - relayHost: This relay's public `host[:port]`, or `nil` to ignore the relay URL.
    /// - Returns: The slug, or `nil`.
    package static func slug(ofProperty value: String, relayHost: String?) -> String? {
        let name: Substring
        let relay: Substring?
        if let range = value.range(of: "http") {
            name = value[..<range.lowerBound]
            relay = value[range.lowerBound...]
        } else {
            name = value[...]
            relay = nil
        }
        if let relayHost, let relay, host(of: relay) != host(of: relayHost) { return nil }
        let slug = slug(of: name.trimmingCharacters(in: .whitespaces))
        return slug.isEmpty ? nil : slug
    }

    /// `host[:port]` of a URL or bare domain, lower-cased: what relay URLs are compared by.
    static func host(of text: some StringProtocol) -> String {
        var value = Substring(text.trimmingCharacters(in: .whitespacesAndNewlines))
        if let scheme = value.range(of: "://") { value = value[scheme.upperBound...] }
        return String(value.prefix { $0 != "/" && $0 != "?" && $0 != "#" && !$0.isWhitespace }).lowercased()
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
