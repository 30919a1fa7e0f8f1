import Foundation

/// How a feed is published, by the names configurations and the official client's `upload.method` use.
public enum PublishMethod: String, Sendable, Hashable, CaseIterable {
    /// `PUT` to the feed's URL with a bearer token (``NodeDestination``).
    case put
    /// The Org Social Host API with a vfile (``HostDestination``).
    case host
    /// `PUT` on a WebDAV share (``WebDAVDestination``).
    case webdav
    /// GitHub's contents API (``RepositoryDestination``).
    case github
    /// The Forgejo/Gitea contents API, Codeberg's (``RepositoryDestination``).
    case forgejo

    /// The method called `name`, case-insensitively: its own name, or an alias (`vfile` for `host`,
    /// `codeberg` and `gitea` for `forgejo`); `nil` for an unknown name.
    /// - Parameter name: the name as written.
    public init?(name: String) {
        let aliases: [String: PublishMethod] = ["vfile": .host, "codeberg": .forgejo, "gitea": .forgejo]
        let lowered = name.trimmingCharacters(in: .whitespaces).lowercased()
        guard let method = PublishMethod(rawValue: lowered) ?? aliases[lowered] else { return nil }
        self = method
    }

    /// Every name accepted, aliases included, for messages and completion.
    public static let acceptedNames = ["put", "host", "webdav", "github", "forgejo", "codeberg", "gitea"]
}
