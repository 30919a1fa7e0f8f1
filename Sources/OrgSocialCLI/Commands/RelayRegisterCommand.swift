import Foundation
import OrgSocialClient

/// `orgsocial relay register <feed-url> [--relay <url>]`: `POST /feeds/` on the relay.
struct RelayRegisterCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "register",
            abstract: "Ask a relay to index a feed.",
            discussion: """
                The relay downloads the feed once to check it; its posts appear in the relay within about a \
                minute.
                """,
            arguments: [ArgumentDefinition(name: "feed-url", help: "The feed's http:// or https:// URL.")],
            options: [RelayOptions.relayOption, ServerTimeout.option, .flag("json", help: "Print the result as JSON.")])
    }

    var input: RelayFeedInput
    var feedURL: String { input.feedURL }
    var relayOption: String? { input.relayOption }
    var printsJSON: Bool { input.printsJSON }

    init(parsing arguments: ParsedArguments) throws {
        input = try RelayFeedInput(parsing: arguments)
    }

    func validate() throws {
        try input.validate()
    }

    func run(in context: CommandContext) async throws {
        let client = try RelayOptions.makeClient(option: relayOption, in: context)
        let registration = try await client.register(feedURL: feedURL)
        if printsJSON {
            struct Output: Encodable {
                var feed: String
                var isNew: Bool
                var relay: String
            }
            context.write(
                try JSONOutput.text(
                    Output(feed: registration.feed, isNew: registration.isNew, relay: client.baseURL.absoluteString)))
            return
        }
        let state = registration.isNew ? "registered" : "already known"
        context.writeLine("\(registration.feed): \(state) at \(client.baseURL.absoluteString)")
    }
}
