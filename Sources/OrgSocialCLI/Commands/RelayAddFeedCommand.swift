import Foundation
import Relay

/// `orgsocial relay add-feed <feed-url> [--db <path>]`: adds a feed to a relay database's crawl list, with
/// the checks of `POST /feeds/`.
struct RelayAddFeedCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "add-feed",
            abstract: "Add a feed to a relay database's crawl list.",
            discussion: """
                Checks the feed as POST /feeds/ does (it is fetched once and must have a #+TITLE, #+NICK or \
                #+DESCRIPTION), then adds it; its posts are indexed by the next crawl pass ('relay scan', or \
                the running relay within --scan-interval).
                """,
            arguments: [ArgumentDefinition(name: "feed-url", help: "The feed's http:// or https:// URL.")],
            options: [
                RelayServiceOptions.databaseOption, RelayServiceOptions.privateAddressesOption,
                .flag("json", help: "Print the outcome as JSON."),
            ])
    }

    /// The feed URL.
    var feedURL: String
    /// The shared relay options.
    var options: RelayServiceOptions
    /// `--json`.
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        feedURL = try arguments.requiredArgument("feed-url").trimmingCharacters(in: .whitespacesAndNewlines)
        options = RelayServiceOptions(parsing: arguments)
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        try options.validate()
        if !FeedFileOptions.isHTTPURL(feedURL) {
            throw CLIError.invalidValue(
                value: feedURL, option: "<feed-url>", reason: "Give the http:// or https:// URL of a feed.")
        }
    }

    func run(in context: CommandContext) async throws {
        var configuration = try options.configuration(in: context)
        configuration.scanInterval = nil
        configuration.peerRelays = []
        let service = try await RelayService(configuration: configuration, createsDatabase: false)
        let outcome = await service.addFeed(feedURL)
        if printsJSON {
            context.write(try JSONOutput.text(Output(outcome)))
        } else {
            switch outcome {
            case .added(let feed):
                context.writeLine("Added \(feed) to the crawl list; the next crawl pass indexes its posts.")
            case .alreadyKnown(let feed):
                context.writeLine("\(feed) is already in the crawl list.")
            case .refused, .failed:
                break
            }
        }
        if let reason = outcome.reason {
            context.report(
                "Error: \(outcome.feed) was not added: \(CLIError.clause(reason))."
                    + (ErrorAdvice.advice(for: outcome).map { " " + $0 } ?? ""))
            throw CLIError.exit(1)
        }
    }

    /// The `--json` output: the outcome with the status `POST /feeds/` gives it (201 added, 200 already
    /// known, 400 refused, 500 storage failure), whether this run added the feed (`isNew`, named as
    /// `relay register --json` names it) and the relay's message when the feed was not added.
    struct Output: Encodable {
        var feed: String
        var status: Int
        var isNew: Bool
        var message: String?

        init(_ outcome: RelayFeedAddition) {
            feed = outcome.feed
            if case .added = outcome { isNew = true } else { isNew = false }
            message = outcome.reason
            status =
                switch outcome {
                case .added: 201
                case .alreadyKnown: 200
                case .refused: 400
                case .failed: 500
                }
        }
    }
}
