import Foundation
import OrgSocialClient

/// `orgsocial relay feeds [--relay <url>]`: every feed the relay indexes (`GET /feeds/`).
struct RelayFeedsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "feeds",
            abstract: "List the feeds a relay indexes.",
            options: [
                RelayOptions.relayOption, ServerTimeout.option, .flag("json", help: "Print the feed URLs as JSON."),
            ])
    }

    var relayOption: String?
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        relayOption = arguments.value("relay")
        printsJSON = arguments.flag("json")
    }

    func validate() throws {}

    func run(in context: CommandContext) async throws {
        let feeds = try await RelayOptions.makeClient(option: relayOption, in: context).feeds()
        if printsJSON {
            context.write(try JSONOutput.text(feeds))
            return
        }
        context.write(feeds.map { $0 + "\n" }.joined())
    }
}
