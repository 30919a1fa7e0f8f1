import Foundation
import Relay

/// `orgsocial relay scan [--db <path>]`: one full crawl pass (follows and peer discovery, then every feed)
/// against the relay's database, then exits.
struct RelayScanCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "scan",
            abstract: "Crawl every feed of a relay database once, then exit.",
            discussion: """
                Reads everyone's #+FOLLOW: lines and the peer relays' feed lists for new feeds, then fetches \
                every feed whose back-off allows it (with conditional GET) and indexes what changed. A relay \
                running on the same database serves the new data at once. Use the running relay's settings: \
                the same relay.env (ORGSOCIAL_RELAY_GROUPS, ORGSOCIAL_RELAY_LIST, \
                ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES, …) or the same --groups, --relay-list and \
                --allow-private-addresses. A feed whose address these settings refuse is skipped, never \
                marked failing. Discovery reads each feed's follows as saved at its last download, so an \
                unchanged feed costs one 304 either way; with --no-discovery, discovery runs only when due \
                (daily, every 3 hours), as in the running relay's passes. Logs the pass to standard error.
                """,
            options: [
                RelayServiceOptions.databaseOption, RelayServiceOptions.groupsOption,
                RelayServiceOptions.relayListOption, RelayServiceOptions.privateAddressesOption,
                .flag("no-discovery", help: "Run follows and peer discovery only when due, not now."),
                .flag("json", help: "Print the pass's report as JSON."),
            ])
    }

    /// The shared relay options.
    var options: RelayServiceOptions
    /// Whether discovery is forced (not `--no-discovery`).
    var forcesDiscovery: Bool
    /// `--json`.
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        options = RelayServiceOptions(parsing: arguments)
        forcesDiscovery = !arguments.flag("no-discovery")
        printsJSON = arguments.flag("json")
    }

    func validate() throws {
        try options.validate()
    }

    func run(in context: CommandContext) async throws {
        var configuration = try options.configuration(in: context)
        configuration.scanInterval = nil
        let service = try await RelayService(configuration: configuration, createsDatabase: false)
        let report = await service.scanOnce(forceDiscovery: forcesDiscovery)
        let summary = RelayPassSummary(report: report, finishedAt: try context.now())
        if printsJSON {
            context.write(try JSONOutput.text(summary))
            return
        }
        context.write(Self.text(summary))
    }

    /// The report as a few lines of text.
    static func text(_ summary: RelayPassSummary) -> String {
        var lines = [
            "Crawled \(summary.feeds) feed\(summary.feeds == 1 ? "" : "s") in "
                + String(format: "%.2f", summary.crawlSeconds) + " s: \(summary.fetched) fetched, "
                + "\(summary.notModified) not modified, \(summary.skipped) waiting (back-off), "
                + "\(summary.failed) failed.",
            "Posts: \(summary.postsAdded) added, \(summary.postsChanged) changed, \(summary.postsRemoved) removed "
                + "(\(summary.bytesDownloaded) bytes downloaded).",
            "Feeds: \(summary.discovered) discovered"
                + (summary.discoverySeconds.map { " (discovery took " + String(format: "%.2f", $0) + " s)" } ?? "")
                + ", \(summary.dropped) dropped after 3 days without success.",
        ]
        for url in summary.failures.keys.sorted() {
            lines.append("failed: \(url): \(summary.failures[url] ?? "")")
        }
        let refusals = summary.refusals ?? [:]
        if !refusals.isEmpty {
            lines.append(
                "Not fetched: \(refusals.count) feed\(refusals.count == 1 ? "" : "s") on addresses this scan's settings "
                    + "refuse (not marked failing). Give the scan the running relay's settings: "
                    + "--allow-private-addresses or ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES=1.")
            for url in refusals.keys.sorted() { lines.append("refused: \(url): \(refusals[url] ?? "")") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
