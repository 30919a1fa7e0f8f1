import Foundation
import OrgSocialClient

/// `orgsocial profile <feed-url> [--relay <url>]`: `GET /profile/` on the relay.
struct ProfileCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "profile",
            abstract: "Show who follows a feed, as a relay knows it.",
            arguments: [ArgumentDefinition(name: "feed-url", help: "The feed's URL, exactly as the relay knows it.")],
            options: [
                RelayOptions.relayOption, ServerTimeout.option, .flag("json", help: "Print the profile as JSON."),
            ])
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
        let profile = try await client.profile(of: feedURL)
        if printsJSON {
            struct Output: Encodable {
                var feed: String
                var followers: [String]
            }
            context.write(try JSONOutput.text(Output(feed: profile.feed, followers: profile.followers)))
            return
        }
        var lines = ["\(profile.feed)", "  followers: \(profile.followers.count)"]
        lines += profile.followers.map { "    \($0)" }
        context.write(lines.joined(separator: "\n") + "\n")
    }
}
