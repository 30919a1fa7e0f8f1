import Foundation
import OrgSocial
import OrgSocialClient

/// Resolves where and how a feed is published (a `PublishDestination`) from the command line, the
/// environment and the configuration file, in that order of precedence.
///
/// | Setting | Option | Environment | `config.json` |
/// |---|---|---|---|
/// | feed URL | `--feed-url` | `ORGSOCIAL_FEED_URL` | `feedURL` (`publish.publicURL` first for `host`) |
/// | method | `--publish-method` | `ORGSOCIAL_PUBLISH_METHOD` | `publish.method` (else inferred) |
/// | token or password | `--publish-token` | `ORGSOCIAL_TOKEN` | `publish.token` |
/// | vfile (`host`) | | `ORGSOCIAL_VFILE` | `publish.vfile` |
/// | the others (`--publish-url`, …) | ``PublishTargetOptions`` | `ORGSOCIAL_PUBLISH_*` | `publish.*` |
enum PublishTarget {
    /// Resolves the target of a command.
    /// - Parameters:
    ///   - context: the environment.
    ///   - feedURLOption: the command's `--feed-url`, if given.
    ///   - options: the command's publishing options.
    /// - Returns: Where and how to publish.
    /// - Throws: ``CLIError/publishingNotConfigured(_:)`` saying what is missing, or
    ///   ``CLIError/invalidConfiguration(path:reason:)`` / ``CLIError/invalidEnvironment(name:value:reason:)``.
    static func resolve(
        in context: CommandContext, feedURLOption: String?, options: PublishTargetOptions = PublishTargetOptions()
    ) throws -> any PublishDestination {
        let settings = SettingResolver(environment: context.environment)
        let file = ConfigurationFile(environment: context.environment)
        let configuration = try file?.load() ?? Configuration()
        let configPath = file?.path ?? "the configuration file"
        if let file, configuration.publish?.token != nil || configuration.publish?.vfile != nil, file.isReadableByOthers
        {
            context.report("warning: \(file.path) holds a secret but others can read it; run 'chmod 600 \(file.path)'.")
        }
        /// A publishing setting: its option, else its variable, else the file.
        func setting(_ key: String, as format: SettingResolver.Format<String> = .text) throws -> String? {
            guard let definition = ConfigurationKey.named(key) else { return nil }
            let value = try settings.resolve(
                option: options.values[key], synopsis: PublishTargetOptions.synopsis(of: key),
                variable: definition.environmentName, configuration: (key, { definition.read(configuration) }),
                as: format)
            guard let value else { return nil }
            if key == "publish.token", value.value == "-" { return try readSecret(in: context, for: value.source) }
            return value.value
        }
        let token = try setting("publish.token")
        let vfile = try setting("publish.vfile")

        let method: PublishMethod
        let methodFormat = SettingResolver.Format<String>(
            expected: "one of " + PublishMethod.acceptedNames.joined(separator: ", ")
        ) { PublishMethod(name: $0)?.rawValue }
        if let name = try setting("publish.method", as: methodFormat), let named = PublishMethod(name: name) {
            method = named
        } else if vfile != nil {
            method = .host
        } else if token != nil {
            method = .put
        } else {
            throw CLIError.publishingNotConfigured(
                "Publishing is not set up. Run 'orgsocial signup --host <url> --nick <nick>' to use an Org Social "
                    + "Host; or set \"publish.method\" (put, webdav, github or forgejo) and its settings with "
                    + "'orgsocial config set' (see docs/publishing.md), for example ORGSOCIAL_FEED_URL and "
                    + "ORGSOCIAL_TOKEN for a server that accepts PUT, such as 'orgsocial serve'.")
        }

        let explicitURL = feedURLOption ?? settings.text(of: "ORGSOCIAL_FEED_URL")
        let feedURL = { (fallback: String?) throws -> URL in
            try url(explicitURL ?? fallback ?? configuration.feedURL, configPath: configPath)
        }
        func required(_ value: String?, _ key: String, _ what: String) throws -> String {
            guard let value else {
                let variable = ConfigurationKey.named(key)?.environmentName.map { ", \($0)" } ?? ""
                throw CLIError.publishingNotConfigured(
                    "Publishing with \(method.rawValue) needs \(what): give \(PublishTargetOptions.synopsis(of: key))"
                        + "\(variable), or run 'orgsocial config set \(key) <value>'.")
            }
            return value
        }
        switch method {
        case .host:
            guard let vfile else {
                throw CLIError.publishingNotConfigured(
                    "No vfile to publish with. Run 'orgsocial signup --host <url> --nick <nick>', or set "
                        + "ORGSOCIAL_VFILE (or \"publish.vfile\" in \(configPath)).")
            }
            guard let vfileURL = URL(string: vfile), FeedFileOptions.isHTTPURL(vfile) else {
                throw CLIError.publishingNotConfigured(
                    "The vfile is not an http:// or https:// URL; check ORGSOCIAL_VFILE or \"publish.vfile\" in "
                        + "\(configPath).")
            }
            return HostDestination(vfile: vfileURL, feedURL: try feedURL(configuration.publish?.publicURL))
        case .put:
            guard let token else {
                throw CLIError.publishingNotConfigured(
                    "No token to publish with. Set ORGSOCIAL_TOKEN (or \"publish.token\" in \(configPath)) to the "
                        + "token the server gave this feed.")
            }
            return NodeDestination(feedURL: try feedURL(nil), token: token)
        case .webdav:
            let publicURL = try feedURL(nil)
            let fileURL = try setting("publish.url").map { try url($0, configPath: configPath, checkingFeed: false) }
            let credentials: HTTPCredentials
            switch (try setting("publish.username"), token) {
            case (let user?, let password?): credentials = .basic(user: user, password: password)
            case (nil, let token?): credentials = .bearer(token)
            case (_?, nil):
                _ = try required(nil, "publish.token", "a password for the user name")
                credentials = .none
            case (nil, nil): credentials = .none
            }
            return WebDAVDestination(feedURL: publicURL, fileURL: fileURL, credentials: credentials)
        case .github, .forgejo:
            let forge: RepositoryDestination.Forge = method == .github ? .github : .forgejo
            let owner = try required(try setting("publish.owner"), "publish.owner", "the repository's owner")
            let repository = try required(try setting("publish.repo"), "publish.repo", "the repository's name")
            let token = try required(token, "publish.token", "a token allowed to write the repository")
            let instance = try setting("publish.instance").map {
                try url($0, configPath: configPath, checkingFeed: false)
            }
            return RepositoryDestination(
                forge: forge, instance: instance, owner: owner, repository: repository,
                path: try setting("publish.path") ?? "social.org", branch: try setting("publish.branch") ?? "main",
                token: token, feedURL: try feedURL(nil))
        }
    }

    /// Reads a secret given as `-` from standard input: its first line, without the line break.
    /// - Throws: ``CLIError/publishingNotConfigured(_:)`` when standard input is empty.
    private static func readSecret(in context: CommandContext, for source: SettingResolver.Source) throws -> String {
        let line =
            String(decoding: try context.readStandardInput(), as: UTF8.self)
            .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let secret = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !secret.isEmpty else {
            throw CLIError.publishingNotConfigured(
                "The token is '-' (read from standard input), but standard input is empty; pipe the token in, for "
                    + "example 'pass show feed-token | orgsocial post --publish-token - …'.")
        }
        return secret
    }

    private static func url(_ text: String?, configPath: String, checkingFeed: Bool = true) throws -> URL {
        guard let text else {
            throw CLIError.publishingNotConfigured(
                "No feed URL to publish to. Pass --feed-url, or set ORGSOCIAL_FEED_URL (or \"feedURL\" in "
                    + "\(configPath)).")
        }
        guard FeedFileOptions.isHTTPURL(text), let url = URL(string: text) else {
            throw CLIError.publishingNotConfigured(
                "The feed URL '\(text)' is not an http:// or https:// URL; check --feed-url, ORGSOCIAL_FEED_URL "
                    + "and \(configPath).")
        }
        if checkingFeed, let problem = FeedFileOptions.feedURLProblem(text) {
            throw CLIError.publishingNotConfigured(
                "The feed URL '\(text)' cannot be used: \(problem) Check --feed-url, ORGSOCIAL_FEED_URL and \(configPath)."
            )
        }
        return url
    }
}
