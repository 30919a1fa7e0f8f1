import Bridge
import Foundation
import OrgSocial
import OrgSocialClient
import TootClient

/// The options of the bridge commands that move posts (`pull`, `sync`, `run`, `notifications`): which
/// accounts (`--account`, default all), which feed (`--file`, `--feed-url`, else the configured feed) and the
/// state file (`--state`).
struct BridgeFeedOptions {
    /// `--account <name>`.
    static let accountOption = BridgeOptions.accountOption
    /// `--file <file>`: a local feed.
    static let fileOption = OptionDefinition.value(
        "file", short: "f", help: "The local social.org file to bridge (default: the configured, published feed).")

    /// The definitions, in help order.
    static let definitions = [
        accountOption, fileOption, FeedFileOptions.feedURLOption, BridgeOptions.stateOption, ServerTimeout.option,
    ]
    /// The definitions without the feed ones (`notifications` needs no feed).
    static let accountDefinitions = [accountOption, BridgeOptions.stateOption, ServerTimeout.option]

    /// `--account`.
    var account: String?
    /// `--file`.
    var file: String?
    /// `--feed-url`.
    var feedURL: String?
    /// `--state`.
    var statePath: String?

    /// Reads the options.
    init(parsing arguments: ParsedArguments) {
        account = arguments.value("account")
        file = arguments.value("file")
        feedURL = arguments.value("feed-url")
        statePath = arguments.value("state")
    }

    /// Checks `--feed-url` and `--file`.
    /// - Throws: ``CLIError`` usage errors.
    func validate() throws {
        if let file {
            var options = FeedFileOptions(path: file)
            options.feedURLOption = feedURL
            try options.validate()
        } else {
            try FeedFileOptions.checkFeedURLOption(feedURL)
        }
    }

    /// The feed: the `--file` (its public URL from `--feed-url` or the configuration), else the published feed
    /// (`--feed-url` or the configured one, written as `publish` writes it).
    /// A command that only reads the feed (`push`) gets a read-only published feed when no way to publish is
    /// configured.
    /// - Parameters:
    ///   - context: the command's context.
    ///   - readsOnly: whether the command only reads the feed.
    /// - Returns: the feed.
    /// - Throws: ``CLIError`` when no feed is configured.
    func feed(in context: CommandContext, readsOnly: Bool = false) throws -> any BridgeFeed {
        if let file {
            var options = FeedFileOptions(path: file)
            options.feedURLOption = feedURL
            return LocalBridgeFeed(path: file, publicURL: try options.feedURL(in: context).flatMap(URL.init(string:)))
        }
        if readsOnly {
            if let text = try FeedFileOptions(path: nil, feedURL: feedURL).feedURL(in: context),
                let url = URL(string: text)
            {
                return ReadOnlyBridgeFeed(url: url)
            }
        }
        return PublishedBridgeFeed(
            destination: try PublishTarget.resolve(in: context, feedURLOption: feedURL),
            publisher: FeedPublisher(transport: context.makeTransport()))
    }

    /// The accounts to work on, each with an authorized client (its token from the configuration file).
    /// - Parameters:
    ///   - state: the state file.
    ///   - allowingNone: whether no account at all is an answer rather than an error.
    ///   - context: the command's context.
    /// - Returns: the accounts, by name.
    /// - Throws: ``BridgeError/unknownAccount(name:)``; ``CLIError/validation(_:)`` when there is no account
    ///   (unless `allowingNone`) or an account has no token.
    func accounts(in state: BridgeState, allowingNone: Bool = false, context: CommandContext) async throws
        -> [BridgeAccountClient]
    {
        try await BridgeOptions.accountClients(in: state, named: account, allowingNone: allowingNone, context: context)
    }

    /// Parses `--max`.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func maximum(_ text: String?) throws -> Int {
        guard let text else { return 20 }
        guard let value = Int(text), value >= 1 else {
            throw CLIError.invalidValue(value: text, option: "--max <count>", reason: "Give a whole number above 0.")
        }
        return value
    }

    /// Parses `--since`: a post ID such as `2026-01-02T03:04:05+0100`, or a date (midnight UTC).
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func since(_ text: String) throws -> Date {
        let isDate = text.count == 10 && text.split(separator: "-").count == 3
        guard let date = OrgTimestamp(isDate ? text + "T00:00:00+0000" : text).sortInstant else {
            throw CLIError.invalidValue(
                value: text, option: "--since <date>",
                reason: "Give a date such as 2026-01-02, or a time such as 2026-01-02T03:04:05+0100.")
        }
        return date
    }
}
