import Foundation
import OrgSocialClient
import Relay

/// `orgsocial relay stats [--relay <url> | --db <path>]`: a remote relay's totals and monthly activity
/// (`GET /stats/`), or what a local relay database holds.
struct RelayStatsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "stats",
            abstract: "Show a relay's totals and monthly activity, or a local relay database's state.",
            discussion: """
                With --db (or $ORGSOCIAL_RELAY_DB), reads the relay database itself: feeds in the crawl list, \
                profiles, posts and follows, the feeds whose fetches fail, and the last crawl pass. Otherwise \
                asks the relay (--relay, $ORGSOCIAL_RELAY or the configuration) for GET /stats/; without any \
                relay, reads the default database when there is one, else asks the default relay (the one \
                'orgsocial config' shows).
                """,
            options: [
                RelayOptions.relayOption, ServerTimeout.option,
                OptionDefinition.value(
                    "db", valueName: "path", help: "Read this relay database instead of asking a relay."),
                .flag("json", help: "Print the statistics as JSON."),
            ])
    }

    /// `--relay`, when given.
    var relayOption: String?
    /// The database options (`--db`).
    var database: RelayServiceOptions
    /// `--json`.
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        relayOption = arguments.value("relay")
        database = RelayServiceOptions(parsing: arguments)
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        try database.validate()
        if relayOption != nil, database.databasePath != nil {
            throw CLIError.validation("Give either --relay (a running relay) or --db (a relay database), not both.")
        }
    }

    func run(in context: CommandContext) async throws {
        // --db, or $ORGSOCIAL_RELAY_DB without --relay, reads a database; otherwise a configured relay is asked.
        let namesDatabase =
            database.databasePath != nil
            || (relayOption == nil
                && SettingResolver(environment: context.environment).text(of: RelayServiceOptions.databaseVariable)
                    != nil)
        if !namesDatabase, try relayOption != nil || RelayOptions.relayURL(option: nil, in: context) != nil {
            try await printRemote(in: context)
        } else if !namesDatabase, !hasDefaultDatabase(in: context) {
            // No relay configured and no database here: the default relay, the one `config` shows.
            try await printRemote(in: context)
        } else {
            try await printLocal(in: context, namesDatabase: namesDatabase)
        }
    }

    /// Whether the default relay database (`$XDG_DATA_HOME/orgsocial/relay.sqlite`) exists here.
    private func hasDefaultDatabase(in context: CommandContext) -> Bool {
        guard let path = try? database.configuration(in: context).databasePath else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    // MARK: - Remote

    /// Asks the relay for `GET /stats/` and prints it.
    private func printRemote(in context: CommandContext) async throws {
        let stats = try await RelayOptions.makeClient(option: relayOption, in: context).stats()
        let global = stats.global
        if printsJSON {
            context.write(try JSONOutput.text(RemoteOutput(stats)))
            return
        }
        var lines = [
            "feeds: \(global.registeredFeeds), accounts: \(global.totalAccounts), posts: \(global.totalPosts), "
                + "follows: \(global.totalFollows), active groups: \(global.activeGroups)"
        ]
        for year in stats.years.keys.sorted() {
            for month in (stats.years[year] ?? [:]).keys.sorted() {
                guard let activity = stats.years[year]?[month] else { continue }
                let posts = activity.totalPosts == 1 ? "post" : "posts"
                let accounts = activity.activeAccounts == 1 ? "account" : "accounts"
                lines.append(
                    "\(year)-\(month): \(activity.totalPosts) \(posts) by \(activity.activeAccounts) \(accounts) "
                        + "(\(activity.replies) replies, \(activity.reactions) reactions, \(activity.boosts) boosts)")
            }
        }
        context.write(lines.joined(separator: "\n") + "\n")
    }

    /// The remote statistics as `--json` prints them (the relay's key names).
    private struct RemoteOutput: Encodable {
        var global: [String: Int]
        var months: [String: [String: Int]]

        init(_ stats: RelayStats) {
            let totals = stats.global
            global = [
                "registered_feeds": totals.registeredFeeds, "total_accounts": totals.totalAccounts,
                "total_posts": totals.totalPosts, "total_follows": totals.totalFollows,
                "active_groups": totals.activeGroups,
            ]
            var months: [String: [String: Int]] = [:]
            for (year, byMonth) in stats.years {
                for (month, activity) in byMonth {
                    months["\(year)-\(month)"] = [
                        "active_accounts": activity.activeAccounts, "total_posts": activity.totalPosts,
                        "posts": activity.posts, "replies": activity.replies, "boosts": activity.boosts,
                        "reactions": activity.reactions, "group_messages": activity.groupMessages,
                        "polls": activity.polls,
                    ]
                }
            }
            self.months = months
        }
    }

    // MARK: - Local

    /// Reads the database and prints its summary.
    private func printLocal(in context: CommandContext, namesDatabase: Bool) async throws {
        var configuration = try database.configuration(in: context)
        guard namesDatabase || FileManager.default.fileExists(atPath: configuration.databasePath)
        else {
            throw CLIError.validation(
                "No relay is configured and there is no relay database at \(configuration.databasePath). Give a "
                    + "relay with --relay URL, or a database with --db PATH.")
        }
        configuration.scanInterval = nil
        configuration.peerRelays = []
        let summary = try await RelayService(configuration: configuration, createsDatabase: false).summary()
        if printsJSON {
            context.write(try JSONOutput.text(summary))
            return
        }
        context.write(Self.text(summary, now: try context.now()))
    }

    /// The local summary as text.
    static func text(_ summary: RelayDatabaseSummary, now: Date) -> String {
        var lines = [
            "database: \(summary.databasePath)",
            "feeds: \(summary.feeds) (\(summary.failingFeeds.count) failing, \(summary.neverFetched) not fetched yet), "
                + "profiles: \(summary.profiles), posts: \(summary.posts), follows: \(summary.follows)",
        ]
        if let pass = summary.lastPass {
            lines.append(
                "last pass: \(pass.finishedAt), "
                    + String(format: "%.2f", pass.durationSeconds) + " s, \(pass.fetched) fetched, "
                    + "\(pass.notModified) not modified, \(pass.failed) failed, \(pass.postsAdded) posts added, "
                    + "\(pass.postsChanged) changed, \(pass.postsRemoved) removed")
        } else {
            lines.append("last pass: none yet")
        }
        if let queue = summary.webmentions {
            let counts = ["pending", "sent", "failed", "no_endpoint"].map { "\(queue[$0] ?? 0) \($0)" }
            lines.append("webmentions: " + counts.joined(separator: ", "))
        }
        for feed in summary.failingFeeds {
            var line = "failing: \(feed.url): \(feed.consecutiveFailures) failure"
            line += feed.consecutiveFailures == 1 ? "" : "s"
            if let error = feed.lastError { line += ", \(error)" }
            if let next = feed.nextAttempt, next > now {
                line += "; next try \(ISO8601DateFormatter().string(from: next))"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
