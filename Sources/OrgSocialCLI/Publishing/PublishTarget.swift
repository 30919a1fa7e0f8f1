import Foundation
import OrgSocial
import OrgSocialClient

/// Resolves where and how a feed is published (a `PublishDestination`) from the command line, the
/// environment and the configuration file, in that order of precedence.
///
/// | Setting | Option | Environment | `config.json` |
/// |---|---|---|---|
/// | feed URL | `--feed-url` | `ORGSOCIAL_FEED_URL` | `feedURL` (`publish.publicURL` first for `host`) |
/// | method | | `ORGSOCIAL_PUBLISH_METHOD` | `publish.method` (else inferred) |
/// | token (`put`) | | `ORGSOCIAL_TOKEN` | `publish.token` |
/// | vfile (`host`) | | `ORGSOCIAL_VFILE` | `publish.vfile` |
enum PublishTarget {
    /// Resolves the target of a command.
    /// - Parameters:
    ///   - context: the environment.
    ///   - feedURLOption: the command's `--feed-url`, if given.
    /// - Returns: Where and how to publish.
    /// - Throws: ``CLIError/publishingNotConfigured(_:)`` saying what is missing, or
    ///   ``CLIError/invalidConfiguration(path:reason:)`` / ``CLIError/invalidEnvironment(name:value:reason:)``.
    static func resolve(in context: CommandContext, feedURLOption: String?) throws -> any PublishDestination {
        let environment = context.environment
        let settings = SettingResolver(environment: environment)
        let file = ConfigurationFile(environment: environment)
        let configuration = try file?.load() ?? Configuration()
        let configPath = file?.path ?? "the configuration file"
        let publishing = configuration.publish
        if let file, publishing?.token != nil || publishing?.vfile != nil, file.isReadableByOthers {
            context.report("warning: \(file.path) holds a secret but others can read it; run 'chmod 600 \(file.path)'.")
        }
        let token = try settings.resolve(
            option: nil, variable: "ORGSOCIAL_TOKEN", configuration: ("publish.token", { publishing?.token }), as: .text
        )?
        .value
        let vfile = try settings.resolve(
            option: nil, variable: "ORGSOCIAL_VFILE", configuration: ("publish.vfile", { publishing?.vfile }), as: .text
        )?
        .value

        let methodName: String
        if let name = try settings.resolve(
            option: nil, variable: "ORGSOCIAL_PUBLISH_METHOD",
            configuration: ("publish.method", { publishing?.method }),
            as: SettingResolver.Format(expected: "'put' or 'host'") { $0 == "put" || $0 == "host" ? $0 : nil })
        {
            methodName = name.value
        } else if vfile != nil {
            methodName = "host"
        } else if token != nil {
            methodName = "put"
        } else {
            throw CLIError.publishingNotConfigured(
                "Publishing is not set up. Run 'orgsocial signup --host <url> --nick <nick>' to use an Org Social "
                    + "Host, or set ORGSOCIAL_FEED_URL and ORGSOCIAL_TOKEN (or \"feedURL\" and \"publish.token\" in "
                    + "\(configPath)) for a server that accepts PUT, such as 'orgsocial serve'.")
        }

        let explicitURL = feedURLOption ?? settings.text(of: "ORGSOCIAL_FEED_URL")
        if methodName == "host" {
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
            let publicURL = explicitURL ?? publishing?.publicURL ?? configuration.feedURL
            return HostDestination(vfile: vfileURL, feedURL: try url(publicURL, configPath: configPath))
        }
        guard let token else {
            throw CLIError.publishingNotConfigured(
                "No token to publish with. Set ORGSOCIAL_TOKEN (or \"publish.token\" in \(configPath)) to the token "
                    + "the server gave this feed.")
        }
        return NodeDestination(feedURL: try url(explicitURL ?? configuration.feedURL, configPath: configPath), token: token)
    }

    private static func url(_ text: String?, configPath: String) throws -> URL {
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
        if let problem = FeedFileOptions.feedURLProblem(text) {
            throw CLIError.publishingNotConfigured(
                "The feed URL '\(text)' cannot be used: \(problem) Check --feed-url, ORGSOCIAL_FEED_URL and \(configPath)."
            )
        }
        return url
    }
}
