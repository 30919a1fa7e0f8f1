package import EngineProtocol
package import Foundation
package import OrgSocialClient

/// What `initialize` configures (engine-protocol.md §5, §9.1): the services, the own feed and how it is
/// stored, the `CLIENT` written into posts, and the filters.
package struct EngineAccount: Sendable {
    /// The mirror's API base, without a trailing slash.
    package var mirror: String = EngineAccount.defaultMirror
    /// The mirror as sent, echoed back by `initialize`.
    package var mirrorAsSent: String = EngineAccount.defaultMirror
    /// The relay.
    package var relay: String = "https://relay.org-social.org"
    /// The preview service.
    package var preview: String = "https://preview.org-social.org/"
    /// The own feed's public URL, if any.
    package var feedURL: URL?
    /// The local feed file (absolute), if any.
    package var file: String?
    /// Where the own feed is uploaded, if anywhere.
    package var destination: (any PublishDestination)?
    /// The `CLIENT` property of new posts.
    package var client: String = "orgsocial-engine"
    /// Feeds whose posts are hidden.
    package var blocked: [String] = []
    /// Words whose posts are hidden.
    package var mutedWords: [String] = []

    /// The official mirror.
    package static let defaultMirror = "https://mirror.org-social.org/api"

    /// A read-only account with the default services.
    package init() {}

    /// Whether writes have somewhere to go: a feed, and a local file or an upload method.
    package var hasWriteTarget: Bool { feedURL != nil && (file != nil || destination != nil) }

    /// The own feed's URL as text.
    package var feed: String? { feedURL?.absoluteString }

    /// Reads `initialize`'s params, checking them as the official engine does.
    /// - Parameters:
    ///   - params: the params.
    ///   - workingDirectory: what a relative `file` is resolved against.
    ///   - previous: the account before: its mirror stays when none is given (as the official engine
    ///     keeps it).
    /// - Throws: ``RPCError`` `invalid_params`.
    package init(params: RPCParams, workingDirectory: String, previous: EngineAccount = EngineAccount())
        throws(RPCError)
    {
        if !params.has("mirror") {
            (mirror, mirrorAsSent) = (previous.mirror, previous.mirrorAsSent)
        }
        if let mirror = try params.string("mirror"), !mirror.isEmpty {
            try Self.checkHTTP(mirror, "mirror")
            mirrorAsSent = mirror
            var trimmed = mirror
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.mirror = trimmed
        }
        if let relay = try params.string("relay"), !relay.isEmpty {
            try Self.checkHTTP(relay, "relay")
            var trimmed = relay
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.relay = trimmed
        }
        if let preview = try params.string("preview"), !preview.isEmpty {
            try Self.checkHTTP(preview, "preview")
            self.preview = preview
        }
        if let feed = try params.string("feed"), !feed.isEmpty {
            feedURL = try Self.checkHTTP(feed, "feed")
        }
        if let file = try params.string("file"), !file.isEmpty {
            guard feedURL != nil else { throw .invalidParams("file needs feed, the public URL of your social.org") }
            self.file = Self.absolutePath(file, workingDirectory: workingDirectory)
        }
        if let client = try params.string("client"), !client.isEmpty { self.client = client }
        blocked = try params.strings("blocked") ?? []
        mutedWords = try params.strings("mutedWords") ?? []
        if let upload = try params.object("upload") {
            destination = try Self.destination(upload, feedURL: feedURL)
        }
    }

    private static func destination(_ upload: RPCParams, feedURL: URL?) throws(RPCError) -> (any PublishDestination)? {
        let method = try upload.requiredString("method")
        let url = try upload.string("url").flatMap { $0.isEmpty ? nil : $0 }
        if let url { try checkHTTP(url, "upload.url") }
        let token = try upload.string("token").flatMap { $0.isEmpty ? nil : $0 }
        switch method {
        case "webdav", "vfile":
            guard let url, let parsed = URL(string: url) else {
                throw .invalidParams("upload.url is required for \(method)")
            }
            guard let feedURL else { return nil }
            if method == "vfile" { return HostDestination(vfile: parsed, feedURL: feedURL) }
            let credentials: HTTPCredentials =
                if let user = try upload.string("username"), let password = try upload.string("password") {
                    .basic(user: user, password: password)
                } else {
                    .none
                }
            var webDAV = WebDAVDestination(feedURL: feedURL, fileURL: parsed, credentials: credentials)
            webDAV.checksTagBeforeWriting = false
            return webDAV
        case "codeberg", "github":
            let owner = try upload.string("owner").flatMap { $0.isEmpty ? nil : $0 }
            let repo = try upload.string("repo").flatMap { $0.isEmpty ? nil : $0 }
            if method == "codeberg" {
                guard owner != nil else { throw .invalidParams("upload.owner is required for codeberg") }
                guard repo != nil else { throw .invalidParams("upload.repo is required for codeberg") }
            }
            guard let token else { throw .invalidParams("upload.token is required for \(method)") }
            guard let feedURL, let owner, let repo else { return nil }
            let instance = try upload.string("instance").flatMap { $0.isEmpty ? nil : URL(string: $0) }
            return RepositoryDestination(
                forge: method == "github" ? .github : .forgejo,
                instance: method == "github" ? nil : (instance ?? URL(string: "https://codeberg.org")),
                owner: owner, repository: repo, path: try upload.string("path") ?? "social.org",
                branch: try upload.string("branch") ?? "main", token: token, feedURL: feedURL)
        default:
            throw .invalidParams("unknown upload method \"\(method)\"")
        }
    }

    /// Checks that `value` is an http(s) URL.
    /// - Parameters:
    ///   - value: the value.
    ///   - name: the param, for the message.
    /// - Returns: the URL.
    /// - Throws: ``RPCError`` `<name> must be an http(s) URL`.
    @discardableResult
    package static func checkHTTP(_ value: String, _ name: String) throws(RPCError) -> URL {
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host?.isEmpty == false
        else { throw .invalidParams("\(name) must be an http(s) URL") }
        return url
    }

    private static func absolutePath(_ path: String, workingDirectory: String) -> String {
        let expanded = NSString(string: path).expandingTildeInPath
        let absolute = expanded.hasPrefix("/") ? expanded : workingDirectory + "/" + expanded
        return URL(fileURLWithPath: absolute).standardizedFileURL.path
    }
}
