import Foundation
import OrgSocialClient

/// `orgsocial relay stats [--relay <url>]`: the relay's totals and monthly activity (`GET /stats/`).
struct RelayStatsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "stats",
            abstract: "Show a relay's totals and monthly activity.",
            options: [RelayOptions.relayOption])
    }

    var relayOption: String?

    init(parsing arguments: ParsedArguments) throws {
        relayOption = arguments.value("relay")
    }

    func validate() throws {}

    func run(in context: CommandContext) async throws {
        let stats = try await RelayOptions.makeClient(option: relayOption, in: context).stats()
        let global = stats.global
        var lines = [
            "feeds: \(global.registeredFeeds), accounts: \(global.totalAccounts), posts: \(global.totalPosts), "
                + "follows: \(global.totalFollows), active groups: \(global.activeGroups)"
        ]
        for year in stats.years.keys.sorted() {
            for month in (stats.years[year] ?? [:]).keys.sorted() {
                guard let activity = stats.years[year]?[month] else { continue }
                lines.append(
                    "\(year)-\(month): \(activity.totalPosts) posts by \(activity.activeAccounts) accounts "
                        + "(\(activity.replies) replies, \(activity.reactions) reactions, \(activity.boosts) boosts)")
            }
        }
        context.write(lines.joined(separator: "\n") + "\n")
    }
}
