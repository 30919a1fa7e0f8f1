import Bridge
import Foundation
import OrgSocialText

/// `orgsocial bridge notifications [--new] [--json]`: mentions of (and so replies to) the accounts by other
/// Mastodon users, with author, text as Org, URL and time.
struct BridgeNotificationsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "notifications",
            abstract: "Show mentions and replies from other Mastodon users.",
            discussion: "Without --new, the latest mentions are shown and nothing is marked. With --new, only "
                + "those not shown by an earlier --new, which are then marked as seen. With --follow the command "
                + "keeps running and prints each new mention as it arrives (with --json, one object per line): "
                + "from the server's streaming API where it has one, else by asking every --interval seconds; "
                + "a lost server gets a line on standard error and a reconnection, and Ctrl-C ends it (exit "
                + "status 130). --follow marks nothing as seen.",
            options: BridgeFeedOptions.accountDefinitions + [
                .flag("new", help: "Only those not shown before (then mark them seen)."),
                .value("limit", valueName: "count", help: "Show at most this many per account (default: 20)."),
                .flag("json", help: "Print them as JSON (with --follow, one object per line)."),
                .flag("follow", help: "Keep running and print new mentions as they arrive."),
                .value(
                    "interval", valueName: "seconds",
                    help: "With --follow and a server without streaming, ask every <seconds>.", defaultValue: "60"),
            ])
    }

    /// `--account`, `--state`.
    var bridge: BridgeFeedOptions
    /// `--new`.
    var onlyNew: Bool
    /// `--limit`.
    var limit: Int
    /// `--json`.
    var printsJSON: Bool
    /// `--follow`.
    var follows: Bool
    /// `--interval`, in seconds.
    var interval: Int

    init(parsing arguments: ParsedArguments) throws {
        bridge = BridgeFeedOptions(parsing: arguments)
        onlyNew = arguments.flag("new")
        limit = try ServeCommand.integer(arguments.value("limit") ?? "20", option: "--limit <count>", range: 1...1000)
        printsJSON = arguments.flag("json")
        follows = arguments.flag("follow")
        interval = try ServeCommand.integer(
            arguments.value("interval") ?? "60", option: "--interval <seconds>", range: 1...86_400)
    }

    func validate() throws {
        if follows, onlyNew {
            throw CLIError.validation("--follow prints mentions as they arrive and marks nothing; leave out --new.")
        }
    }

    /// One notification in the JSON output.
    struct Entry: Encodable {
        var account: String
        var id: String
        var type: String
        var author: String
        var authorName: String?
        var text: String
        var url: String?
        var statusID: String?
        var inReplyToID: String?
        var createdAt: String

        /// Makes one.
        init(_ item: BridgeNotification) {
            account = item.account
            id = item.id
            type = item.type
            author = item.author
            authorName = item.authorName
            text = item.text
            url = item.url
            statusID = item.statusID
            inReplyToID = item.inReplyToID
            createdAt = BridgeOptions.timestamp(item.createdAt)
        }

        /// Writes every field, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(account, forKey: .account)
            try container.encode(id, forKey: .id)
            try container.encode(type, forKey: .type)
            try container.encode(author, forKey: .author)
            try container.encode(authorName, forKey: .authorName)
            try container.encode(text, forKey: .text)
            try container.encode(url, forKey: .url)
            try container.encode(statusID, forKey: .statusID)
            try container.encode(inReplyToID, forKey: .inReplyToID)
            try container.encode(createdAt, forKey: .createdAt)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case account, id, type, author, authorName, text, url, statusID, inReplyToID, createdAt
        }
    }

    func run(in context: CommandContext) async throws {
        let state = try await BridgeOptions.openState(option: bridge.statePath, in: context)
        if follows {
            try await follow(try await bridge.accounts(in: state, context: context), in: context)
            return
        }
        var found: [BridgeNotification] = []
        for entry in try await bridge.accounts(in: state, context: context) {
            found += try await BridgeNotifications(state: state, account: entry.account, client: entry.client)
                .fetch(onlyNew: onlyNew, limit: limit, now: try context.now())
        }
        if printsJSON {
            context.write(try JSONOutput.text(found.map(Entry.init)))
            return
        }
        if found.isEmpty {
            context.writeLine(onlyNew ? "No new mentions." : "No mentions.")
            return
        }
        for item in found { context.write(Self.render(item)) }
    }

    /// One mention as a block: time, author and account, the URL, the text indented, a blank line.
    static func render(_ item: BridgeNotification) -> String {
        let name = item.authorName.map { "\($0) " } ?? ""
        // The head and the URL stay on one line whatever the server sent (docs/security.md).
        var text =
            TerminalText.line(
                "\(BridgeOptions.timestamp(item.createdAt)) \(name)@\(item.author) → \(item.account)"
                    + (item.inReplyToID != nil ? " (reply)" : "")) + "\n"
        if let url = item.url { text += "  \(TerminalText.line(url))\n" }
        for line in item.text.split(separator: "\n", omittingEmptySubsequences: false) { text += "  \(line)\n" }
        return text + "\n"
    }
}
