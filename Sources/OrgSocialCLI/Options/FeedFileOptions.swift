import Foundation
import OrgSocial

/// The options every command that edits a feed shares: `--file` and `--feed-url`.
struct FeedFileOptions {
    /// `-f, --file <file>`.
    static let fileOption = OptionDefinition.value(
        "file", short: "f", help: "The social.org file to change.", isRequired: true)
    /// `--feed-url <url>`.
    static let feedURLOption = OptionDefinition.value(
        "feed-url", valueName: "url",
        help: "The URL the feed is published at, used to print post URLs and to publish (default: "
            + "$ORGSOCIAL_FEED_URL, else \"feedURL\" in the configuration).")

    /// Both definitions, in help order.
    static let definitions = [fileOption, feedURLOption]

    /// The feed file.
    var path: String
    /// The feed's public URL from `--feed-url`, if given.
    var feedURLOption: String?

    /// Reads `--file` and `--feed-url`.
    /// - Throws: ``CLIError`` when `--file` is missing (the parser catches that first).
    init(parsing arguments: ParsedArguments) throws {
        path = try arguments.requiredValue("file")
        feedURLOption = arguments.value("feed-url")
    }

    /// Options for a command without `--feed-url`.
    /// - Parameter path: the feed file.
    init(path: String) {
        self.path = path
        feedURLOption = nil
    }

    /// Checks that the file can be written and the URL is an http(s) URL.
    /// - Throws: ``CLIError`` usage errors.
    func validate() throws {
        if path.isEmpty {
            throw CLIError.invalidValue(
                value: path, option: Self.fileOption.synopsis, reason: "Give the path of a file.")
        }
        if path == FeedFile.standardInputPath {
            throw CLIError.invalidValue(
                value: path, option: Self.fileOption.synopsis,
                reason: "This command changes the file, so it cannot read standard input; give a path.")
        }
        if let url = feedURLOption, !Self.isHTTPURL(url) {
            throw CLIError.invalidValue(
                value: url, option: Self.feedURLOption.synopsis,
                reason: "Give the http:// or https:// URL your social.org file is published at.")
        }
    }

    /// The feed's URL: `--feed-url`, else `ORGSOCIAL_FEED_URL`, else `feedURL` in the configuration file,
    /// else `nil`.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a malformed `ORGSOCIAL_FEED_URL`,
    ///   ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    func feedURL(in context: CommandContext) throws -> String? {
        if let feedURLOption { return feedURLOption }
        guard let url = context.environment["ORGSOCIAL_FEED_URL"], !url.isEmpty else {
            return try ConfigurationFile.load(in: context).feedURL.flatMap { Self.isHTTPURL($0) ? $0 : nil }
        }
        guard Self.isHTTPURL(url) else {
            throw CLIError.invalidEnvironment(
                name: "ORGSOCIAL_FEED_URL", value: url, reason: "it must be an http:// or https:// URL, or unset.")
        }
        return url
    }

    /// What commands print for a post: `<feed URL>#<ID>` when the feed URL is known, else the ID.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)``.
    func address(ofPost id: String, in context: CommandContext) throws -> String {
        try feedURL(in: context).map { "\($0)#\(id)" } ?? id
    }

    /// Whether `text` is an absolute http(s) URL with a host and no spaces.
    static func isHTTPURL(_ text: String) -> Bool { OrgSyntax.isHTTPURL(text) }
}
