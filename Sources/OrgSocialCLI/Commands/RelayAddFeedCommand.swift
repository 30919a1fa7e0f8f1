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
        let service = try await RelayService(configuration: configuration)
        let outcome = await service.addFeed(feedURL)
        if printsJSON {
            context.write(try JSONOutput.text(outcome))
        } else if outcome.isAdded {
            context.writeLine(
                outcome.isNew
                    ? "Added \(outcome.feed) to the crawl list; the next crawl pass indexes its posts."
                    : "\(outcome.feed) is already in the crawl list.")
        }
        if !outcome.isAdded {
            context.report("Error: \(outcome.feed) was not added: \(outcome.message ?? "unknown error").")
            throw CLIError.exit(1)
        }
    }
}
