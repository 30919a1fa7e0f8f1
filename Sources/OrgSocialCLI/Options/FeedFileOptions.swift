import Foundation
import OrgSocial

/// The options every command that edits a feed shares: `--file` and `--feed-url`.
///
/// Without `--file`, the file is the configured one (``configuredFile(in:)``: `$ORGSOCIAL_FILE`, else
/// `"file"` in the configuration), for every command that takes `--file`. The configured feed URL
/// (`$ORGSOCIAL_FEED_URL`, else `"feedURL"`) is the URL of that file only: for another file, post URLs
/// need `--feed-url` (see ``feedURL(in:)``).
struct FeedFileOptions {
    /// `-f, --file <file>`.
    static let fileOption = OptionDefinition.value(
        "file", short: "f",
        help: "The social.org file to change (default: $ORGSOCIAL_FILE, else \"file\" in the configuration).")
    /// `--feed-url <url>`.
    static let feedURLOption = OptionDefinition.value(
        "feed-url", valueName: "url",
        help: "The URL the feed is published at, used to print post URLs and to publish (default, for the "
            + "configured file: $ORGSOCIAL_FEED_URL, else \"feedURL\" in the configuration).")

    /// Both definitions, in help order.
    static let definitions = [fileOption, feedURLOption]

    /// `--file`, if given.
    var pathOption: String?
    /// The feed's public URL from `--feed-url`, if given.
    var feedURLOption: String?

    /// Reads `--file` and `--feed-url`.
    init(parsing arguments: ParsedArguments) {
        pathOption = arguments.value("file")
        feedURLOption = arguments.value("feed-url")
    }

    /// Options naming a file and a `--feed-url`.
    /// - Parameters:
    ///   - path: the `--file` value, or `nil` for the configured file.
    ///   - feedURL: the `--feed-url` value.
    init(path: String?, feedURL: String? = nil) {
        pathOption = path
        feedURLOption = feedURL
    }

    /// Checks that the file can be written and the URL is an http(s) URL.
    /// - Throws: ``CLIError`` usage errors.
    func validate() throws {
        if let pathOption { try Self.checkWritable(pathOption, option: Self.fileOption.synopsis) }
        try Self.checkFeedURLOption(feedURLOption)
    }

    /// Refuses a `--feed-url` that cannot be a feed's URL (``feedURLProblem(_:)``).
    /// - Parameter url: the option's value, `nil` when it was not given.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``, a usage error.
    static func checkFeedURLOption(_ url: String?) throws {
        guard let url, let problem = feedURLProblem(url) else { return }
        throw CLIError.invalidValue(value: url, option: feedURLOption.synopsis, reason: problem)
    }

    /// Why `text` cannot be a feed's URL, or `nil` when it can: an absolute http(s) URL without a `?query`
    /// or `#fragment`. Post URLs are `<feed URL>#<ID>`, so a fragment or query would give every post a
    /// broken URL.
    /// - Parameter text: the URL as given.
    /// - Returns: the reason, said as what to give instead.
    static func feedURLProblem(_ text: String) -> String? {
        guard isHTTPURL(text) else { return "Give the http:// or https:// URL your social.org file is published at." }
        if text.contains("#") {
            return "A feed URL has no #fragment (post URLs are <feed URL>#<ID>); give the URL without it."
        }
        if text.contains("?") { return "A feed URL has no ?query; give the URL the file is published at, without it." }
        return nil
    }

    /// The feed file: `--file`, else the configured file.
    /// - Throws: ``CLIError/validation(_:)`` when neither names one, ``CLIError`` for a configured value that
    ///   is not a writable path or a broken configuration file.
    func path(in context: CommandContext) throws -> String {
        try Self.path(option: pathOption, in: context)
    }

    /// `option`, else the configured file (one lookup for every command that takes `--file`).
    /// - Throws: ``CLIError/validation(_:)`` when there is no file at all.
    static func path(option: String?, in context: CommandContext) throws -> String {
        if let option { return option }
        guard let path = try configuredFile(in: context) else {
            throw CLIError.validation(
                "No feed file given: pass --file FILE, set ORGSOCIAL_FILE, or save yours with 'orgsocial config "
                    + "set file PATH'.")
        }
        try checkWritable(path, option: "the \"file\" setting")
        return path
    }

    /// The `file` setting: `$ORGSOCIAL_FILE`, else `"file"` in the configuration, else `nil`.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    static func configuredFile(in context: CommandContext) throws -> String? {
        try SettingResolver(environment: context.environment).resolve(
            option: nil, variable: "ORGSOCIAL_FILE",
            configuration: ("file", { try ConfigurationFile.load(in: context).file }),
            as: .text)?.value
    }

    /// Whether `path` (a `--file` value, `nil` for none) is the configured file, whose URL the configured
    /// feed URL is: no `--file`, no `file` setting at all, or a `--file` naming the same file.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    static func isConfiguredFile(_ path: String?, in context: CommandContext) throws -> Bool {
        guard let path, let configured = try configuredFile(in: context) else { return true }
        func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        }
        return canonical(path) == canonical(configured)
    }

    /// Refuses an empty path, and `-` (these commands write the file).
    private static func checkWritable(_ path: String, option: String) throws {
        if path.isEmpty {
            throw CLIError.invalidValue(value: path, option: option, reason: "Give the path of a file.")
        }
        if path == FeedFile.standardInputPath {
            throw CLIError.invalidValue(
                value: path, option: option,
                reason: "This command changes the file, so it cannot read standard input; give a path.")
        }
    }

    /// The feed's URL: `--feed-url`; else, for the configured file (``isConfiguredFile(_:in:)``),
    /// `ORGSOCIAL_FEED_URL`, else `feedURL` in the configuration file; else `nil` (another file's URL is
    /// not the configured one).
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a malformed `ORGSOCIAL_FEED_URL`,
    ///   ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    func feedURL(in context: CommandContext) throws -> String? {
        if let feedURLOption { return feedURLOption }
        guard try Self.isConfiguredFile(pathOption, in: context) else { return nil }
        return try Self.configuredFeedURL(in: context)
    }

    /// The configured feed URL: `ORGSOCIAL_FEED_URL`, else `feedURL` in the configuration file, else `nil`.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for a malformed `ORGSOCIAL_FEED_URL`,
    ///   ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    static func configuredFeedURL(in context: CommandContext) throws -> String? {
        // A "feedURL" setting that is not a URL is skipped, as it always was.
        try SettingResolver(environment: context.environment).resolve(
            option: nil, variable: "ORGSOCIAL_FEED_URL",
            configuration: (
                "feedURL", { try ConfigurationFile.load(in: context).feedURL.flatMap(RelayOptions.skippingNonURL) }
            ),
            as: .feedURL)?.value
    }

    /// What commands print for a post: `<feed URL>#<ID>` when the feed URL is known, else the ID.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)``.
    func address(ofPost id: String, in context: CommandContext) throws -> String {
        try feedURL(in: context).map { "\($0)#\(id)" } ?? id
    }

    /// Whether `text` is an absolute http(s) URL with a host and no spaces.
    static func isHTTPURL(_ text: String) -> Bool { OrgSyntax.isHTTPURL(text) }
}
