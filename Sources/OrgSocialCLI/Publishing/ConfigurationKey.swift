import Foundation
import OrgSocial
import OrgSocialClient

/// One setting of `config.json` as `orgsocial config` names it: its key, the environment variable that
/// overrides it, its default, how a value is checked, and how it is read from and written to a
/// ``Configuration``.
///
/// List settings (`languages`, `block`) are written as comma-separated text on the command line and in
/// the environment, and stored as JSON arrays.
struct ConfigurationKey: Sendable {
    /// What kind of value a key holds, which decides how it is checked.
    enum Kind: Sendable {
        /// An http:// or https:// URL.
        case url
        /// A feed's URL: an http:// or https:// URL without a `?query` or `#fragment`.
        case feedURL
        /// A file path.
        case path
        /// A publishing method: `put`, `host`, `webdav`, `github` or `forgejo` (and their aliases).
        case publishMethod
        /// An http:// or https:// URL, or `none`.
        case urlOrNone
        /// Any non-empty text (tokens).
        case text
        /// `true` or `false`.
        case boolean
        /// An ISO 639-1 language code.
        case language
        /// A list of language codes, comma- or space-separated (`OrgSyntax.languageCodes(in:)`).
        case languageList
        /// A comma-separated list of http:// or https:// URLs.
        case urlList
    }

    /// The key, as written in `config.json` (`publish.token` for nested ones).
    let name: String
    /// The environment variable that overrides the file, if any.
    let environmentName: String?
    /// The kind of value.
    let kind: Kind
    /// Whether the value is a secret, hidden by `config list`.
    let isSecret: Bool
    /// One line saying what the setting does.
    let summary: String
    /// Reads the stored value as text (lists comma-separated).
    let read: @Sendable (Configuration) -> String?
    /// Stores a checked value, or removes it with `nil`.
    let write: @Sendable (inout Configuration, String?) -> Void

    /// Whether the key holds a list (`add` and `remove` apply).
    var isList: Bool { kind == .languageList || kind == .urlList }

    /// The relay the timeline reads when nothing is configured: `$ORGSOCIAL_DEFAULT_RELAY` when it is an
    /// http(s) URL (tests and private deployments point it elsewhere), else `https://relay.org-social.org`.
    /// - Parameter environment: the environment variables.
    /// - Returns: The default relay's URL.
    static func defaultRelayURL(environment: [String: String]) -> String {
        if let url = environment["ORGSOCIAL_DEFAULT_RELAY"], OrgSyntax.isHTTPURL(url) { return url }
        return "https://relay.org-social.org"
    }

    /// The built-in default of this key, if it has one.
    /// - Parameter environment: the environment variables.
    /// - Returns: The default, or `nil` when the key has none.
    func defaultValue(environment: [String: String]) -> String? {
        switch name {
        case "relayURL": Self.defaultRelayURL(environment: environment)
        case "mirror": Self.defaultMirror(environment: environment)
        default: nil
        }
    }

    /// The mirror told about writes when none is configured: `$ORGSOCIAL_DEFAULT_MIRROR` when it is an
    /// http(s) URL or `none` (tests and private deployments), else the official mirror.
    /// - Parameter environment: the environment variables.
    /// - Returns: The default mirror, or `none`.
    static func defaultMirror(environment: [String: String]) -> String {
        if let value = environment["ORGSOCIAL_DEFAULT_MIRROR"], value == "none" || OrgSyntax.isHTTPURL(value) {
            return value
        }
        return "https://mirror.org-social.org/api"
    }

    /// The value in effect and where it comes from: the environment, else the file, else the default
    /// (``SettingResolver``; an empty value counts as unset).
    /// - Parameters:
    ///   - configuration: the file's configuration.
    ///   - environment: the environment variables.
    /// - Returns: The value and where it comes from, or `nil` when it is not set anywhere.
    /// - Throws: nothing in practice: every text is accepted (the callers check it for its kind).
    func effectiveValue(
        in configuration: Configuration, environment: [String: String]
    ) throws -> (value: String, source: SettingResolver.Source)? {
        try SettingResolver(environment: environment).resolve(
            option: nil, variable: environmentName, configuration: (name, { read(configuration) }),
            default: defaultValue(environment: environment), as: .text)
    }

    /// Checks a value given on the command line and returns it as stored (lists trimmed and without
    /// duplicates, a relative path made absolute from the current folder).
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` saying what a valid value looks like.
    func checked(_ value: String) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        func invalid(_ reason: String) -> CLIError {
            CLIError.invalidValue(value: value, option: "<value> of \(name)", reason: reason)
        }
        switch kind {
        case .url:
            guard OrgSyntax.isHTTPURL(trimmed) else { throw invalid("Give an http:// or https:// URL.") }
        case .feedURL:
            guard OrgSyntax.isHTTPURL(trimmed) else { throw invalid("Give an http:// or https:// URL.") }
            if let problem = FeedFileOptions.feedURLProblem(trimmed) { throw invalid(problem) }
        case .path, .text:
            guard !trimmed.isEmpty else { throw invalid("Give a non-empty value, or use 'config unset \(name)'.") }
            // A relative path is stored from the current folder, so it means the same file from anywhere.
            if kind == .path, !trimmed.hasPrefix("/") {
                return URL(fileURLWithPath: trimmed).standardizedFileURL.path
            }
        case .publishMethod:
            guard PublishMethod(name: trimmed) != nil else {
                throw invalid("Give one of " + PublishMethod.acceptedNames.joined(separator: ", ") + ".")
            }
            return trimmed.lowercased()
        case .urlOrNone:
            guard trimmed == "none" || OrgSyntax.isHTTPURL(trimmed) else {
                throw invalid("Give an http:// or https:// URL, or 'none'.")
            }
        case .boolean:
            guard trimmed == "true" || trimmed == "false" else { throw invalid("Give 'true' or 'false'.") }
        case .language:
            return try LanguageInput.code(value, from: .option("<value> of \(name)"))
        case .languageList:
            // The one list syntax of languages: `en,es` or "en es".
            let codes = try LanguageInput.list(value, from: .option("<value> of \(name)"))
            guard !codes.isEmpty else { throw invalid("Give one or more language codes, e.g. en,es.") }
            return codes.joined(separator: ",")
        case .urlList:
            let items = Self.items(of: trimmed)
            guard !items.isEmpty else { throw invalid("Give one or more values separated by commas.") }
            for item in items where !OrgSyntax.isHTTPURL(item) {
                throw invalid("'\(item)' is not an http:// or https:// feed URL.")
            }
            var unique: [String] = []
            for item in items where !unique.contains(item) { unique.append(item) }
            return unique.joined(separator: ",")
        }
        return trimmed
    }

    /// The items of a comma-separated list, trimmed, empty ones dropped.
    /// - Parameter text: the list.
    /// - Returns: The items.
    static func items(of text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The key called `name` (case-insensitive; `block-list`, `lang`, `relay` and the like are accepted
    /// as aliases), or `nil`.
    /// - Parameter name: the key as typed.
    /// - Returns: The key, or `nil` when no key has that name.
    static func named(_ name: String) -> ConfigurationKey? {
        let aliases = [
            "feed-url": "feedURL", "feed": "feedURL", "relay": "relayURL", "relay-url": "relayURL",
            "lang": "language", "blocklist": "block", "block-list": "block", "blocked": "block",
            "token": "publish.token", "vfile": "publish.vfile", "method": "publish.method",
            "public-url": "publish.publicURL", "automatic": "publish.automatic", "username": "publish.username",
            "user": "publish.username", "owner": "publish.owner", "repo": "publish.repo", "repository": "publish.repo",
            "branch": "publish.branch", "instance": "publish.instance", "upload-url": "publish.url",
        ]
        let lowered = name.lowercased()
        let canonical = (aliases[lowered] ?? lowered).lowercased()
        return all.first { $0.name.lowercased() == canonical }
    }

    /// Every key, in `config list` order.
    static let all: [ConfigurationKey] = [
        ConfigurationKey(
            name: "feedURL", environmentName: "ORGSOCIAL_FEED_URL", kind: .feedURL, isSecret: false,
            summary: "Your feed's public URL (its #+FOLLOW: list is what you read).",
            read: { $0.feedURL }, write: { $0.feedURL = $1 }),
        ConfigurationKey(
            name: "file", environmentName: "ORGSOCIAL_FILE", kind: .path, isSecret: false,
            summary: "Your local social.org file (what 'publish' uploads).",
            read: { $0.file }, write: { $0.file = $1 }),
        ConfigurationKey(
            name: "publish.method", environmentName: "ORGSOCIAL_PUBLISH_METHOD", kind: .publishMethod,
            isSecret: false,
            summary: "How to publish: put (a node with a token), host (a vfile), webdav, github or forgejo "
                + "(codeberg, gitea).",
            read: { $0.publish?.method },
            write: { configuration, value in configuration.editPublishing { $0.method = value } }),
        ConfigurationKey(
            name: "publish.token", environmentName: "ORGSOCIAL_TOKEN", kind: .text, isSecret: true,
            summary: "The bearer token for put, the password for webdav, the API token for github and forgejo.",
            read: { $0.publish?.token },
            write: { configuration, value in configuration.editPublishing { $0.token = value } }),
        ConfigurationKey(
            name: "publish.vfile", environmentName: "ORGSOCIAL_VFILE", kind: .url, isSecret: true,
            summary: "The secret upload URL for host.",
            read: { $0.publish?.vfile },
            write: { configuration, value in configuration.editPublishing { $0.vfile = value } }),
        ConfigurationKey(
            name: "publish.url", environmentName: "ORGSOCIAL_PUBLISH_URL", kind: .url, isSecret: false,
            summary: "The WebDAV upload URL (default: feedURL).",
            read: { $0.publish?.url },
            write: { configuration, value in configuration.editPublishing { $0.url = value } }),
        ConfigurationKey(
            name: "publish.username", environmentName: "ORGSOCIAL_PUBLISH_USERNAME", kind: .text, isSecret: false,
            summary: "The WebDAV user name (with publish.token as the password, sent as HTTP Basic).",
            read: { $0.publish?.username },
            write: { configuration, value in configuration.editPublishing { $0.username = value } }),
        ConfigurationKey(
            name: "publish.owner", environmentName: "ORGSOCIAL_PUBLISH_OWNER", kind: .text, isSecret: false,
            summary: "The repository's owner (a user or an organisation) for github and forgejo.",
            read: { $0.publish?.owner },
            write: { configuration, value in configuration.editPublishing { $0.owner = value } }),
        ConfigurationKey(
            name: "publish.repo", environmentName: "ORGSOCIAL_PUBLISH_REPO", kind: .text, isSecret: false,
            summary: "The repository holding the feed, for github and forgejo.",
            read: { $0.publish?.repo },
            write: { configuration, value in configuration.editPublishing { $0.repo = value } }),
        ConfigurationKey(
            name: "publish.path", environmentName: "ORGSOCIAL_PUBLISH_PATH", kind: .text, isSecret: false,
            summary: "The feed's path in the repository (default: social.org).",
            read: { $0.publish?.path },
            write: { configuration, value in configuration.editPublishing { $0.path = value } }),
        ConfigurationKey(
            name: "publish.branch", environmentName: "ORGSOCIAL_PUBLISH_BRANCH", kind: .text, isSecret: false,
            summary: "The branch written to (default: main).",
            read: { $0.publish?.branch },
            write: { configuration, value in configuration.editPublishing { $0.branch = value } }),
        ConfigurationKey(
            name: "publish.instance", environmentName: "ORGSOCIAL_PUBLISH_INSTANCE", kind: .url, isSecret: false,
            summary: "The forge's API base (default: https://api.github.com for github, https://codeberg.org for "
                + "forgejo).",
            read: { $0.publish?.instance },
            write: { configuration, value in configuration.editPublishing { $0.instance = value } }),
        ConfigurationKey(
            name: "publish.publicURL", environmentName: nil, kind: .url, isSecret: false,
            summary: "Where a host-published feed is read.",
            read: { $0.publish?.publicURL },
            write: { configuration, value in configuration.editPublishing { $0.publicURL = value } }),
        ConfigurationKey(
            name: "publish.automatic", environmentName: nil, kind: .boolean, isSecret: false,
            summary: "Whether editing commands publish without --publish.",
            read: { $0.publish?.automatic.map { $0 ? "true" : "false" } },
            write: { configuration, value in configuration.editPublishing { $0.automatic = value.map { $0 == "true" } }
            }
        ),
        ConfigurationKey(
            name: "relayURL", environmentName: "ORGSOCIAL_RELAY", kind: .url, isSecret: false,
            summary: "The relay the reading commands ask; with no feed set, timeline reads its public timeline.",
            read: { $0.relayURL }, write: { $0.relayURL = $1 }),
        ConfigurationKey(
            name: "mirror", environmentName: "ORGSOCIAL_MIRROR", kind: .urlOrNone, isSecret: false,
            summary: "The mirror read by the reading commands and asked to read the feed again after each write, or "
                + "none (default: "
                + "https://mirror.org-social.org/api).",
            read: { $0.mirror }, write: { $0.mirror = $1 }),
        ConfigurationKey(
            name: "language", environmentName: "ORGSOCIAL_LANG", kind: .language, isSecret: false,
            summary: "The language of new posts when --lang is not given.",
            read: { $0.language }, write: { $0.language = $1 }),
        ConfigurationKey(
            name: "languages", environmentName: "ORGSOCIAL_LANGUAGES", kind: .languageList, isSecret: false,
            summary: "The languages the timeline shows when --lang is not given (posts without LANG always show).",
            read: { $0.languages.flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") } },
            write: { $0.languages = $1.map(ConfigurationKey.items(of:)) }),
        ConfigurationKey(
            name: "block", environmentName: "ORGSOCIAL_BLOCK", kind: .urlList, isSecret: false,
            summary: "Feed URLs whose posts are never shown.",
            read: { $0.block.flatMap { $0.isEmpty ? nil : $0.joined(separator: ",") } },
            write: { $0.block = $1.map(ConfigurationKey.items(of:)) }),
    ]
}

extension Configuration {
    /// Edits the publishing settings, creating them when needed and dropping them when they end up empty.
    /// - Parameter edit: the change.
    mutating func editPublishing(_ edit: (inout Publishing) -> Void) {
        var publishing = publish ?? Publishing()
        edit(&publishing)
        publish = publishing == Publishing() ? nil : publishing
    }

    /// The settings in effect for the reading commands, as plain values: the environment over the file.
    /// - Parameters:
    ///   - environment: the environment variables.
    ///   - path: the configuration file's path, for errors.
    /// - Returns: the blocked feeds and the timeline languages (empty when unset).
    /// - Throws: ``CLIError`` when `ORGSOCIAL_LANGUAGES` (or the stored `languages`) holds something that is
    ///   not a language code.
    func readingSettings(
        environment: [String: String], path: String
    ) throws -> (blockedFeeds: [String], languages: [String]) {
        func setting(_ key: String) throws -> (value: String, source: SettingResolver.Source)? {
            try ConfigurationKey.named(key)?.effectiveValue(in: self, environment: environment)
        }
        // The file's path as the caller knows it (the resolver names it only when the file can be found).
        func named(_ source: SettingResolver.Source) -> SettingResolver.Source {
            if case .configuration(_, let key) = source { return .configuration(path: path, key: key) }
            return source
        }
        let block = try setting("block")
        let blocked = block.map { ConfigurationKey.items(of: $0.value) } ?? []
        // A block list that names no feed blocks nothing: say so rather than show what was meant to be hidden.
        if let block, let item = blocked.first(where: { !OrgSyntax.isHTTPURL($0) }) {
            throw SettingResolver.error(
                value: item, from: named(block.source), expected: "a list of http:// or https:// feed URLs")
        }
        guard let languages = try setting("languages") else { return (blocked, []) }
        let source = named(languages.source)
        return (blocked, try LanguageInput.list(languages.value, from: source))
    }
}

extension ConfigurationFile {
    /// The reading settings in effect in a context (``Configuration/readingSettings(environment:path:)``).
    /// - Throws: ``CLIError`` for an unreadable configuration or a bad language list.
    static func readingSettings(in context: CommandContext) throws -> (blockedFeeds: [String], languages: [String]) {
        let file = ConfigurationFile(environment: context.environment)
        return try (file?.load() ?? Configuration()).readingSettings(
            environment: context.environment, path: file?.path ?? "config.json")
    }
}
