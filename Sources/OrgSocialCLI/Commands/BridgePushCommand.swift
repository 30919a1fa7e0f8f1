import Bridge
import Foundation
import OrgSocial
import TootClient

/// `orgsocial bridge push`: mirrors the feed's new, changed and removed posts to the bridge's accounts.
struct BridgePushCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "push",
            abstract: "Post the feed's new posts to the bridge's accounts; edit and delete what changed.",
            discussion: """
                New posts go oldest first, at most --max per run; the first push of an account sends only \
                posts written after the account was added, unless --since or --all says otherwise. Posts \
                made by 'bridge pull', posts tagged nobridge and VISIBILITY: mention posts (unless \
                --mention-posts) are left out. The state file is written after each call to the server, so \
                a run stopped at any point resumes without posting twice. --dry-run prints each status that \
                would be sent, with its length as the server counts it, and changes nothing.
                """,
            options: [
                BridgeOptions.accountOption, fileOption, FeedFileOptions.feedURLOption,
                .value("max", valueName: "n", help: "The most new posts per account and run.", defaultValue: "20"),
                .value(
                    "since", valueName: "date",
                    help: "Mirror posts from this date on (2026-05-01 or an Org timestamp), not only those written "
                        + "after the account was added."),
                .flag("all", help: "Mirror every post of the feed, however old."),
                .value(
                    "replies", valueName: "policy",
                    help: "Replies to other people's posts: post them with a link, or skip them.",
                    allowedValues: ReplyPolicy.allCases.map(\.rawValue), defaultValue: "link"),
                .flag("mention-posts", help: "Also mirror VISIBILITY: mention posts, as direct statuses."),
                .flag("dry-run", help: "Print what would be sent and change nothing."),
                .flag("json", help: "Print the result as JSON."),
                BridgeOptions.waitOption, BridgeOptions.stateOption,
            ])
    }

    /// `--file <file>`: the feed to read (not required: the feed URL is fetched without it).
    static let fileOption = OptionDefinition.value(
        "file", short: "f", help: "The social.org file to read (default: the feed at --feed-url).")

    /// `--account`.
    var accountName: String?
    /// `--file`.
    var filePath: String?
    /// `--feed-url`.
    var feedURLOption: String?
    /// `--state`.
    var statePath: String?
    /// `--wait`.
    var wait: Duration
    /// `--json`.
    var printsJSON: Bool
    /// Everything else.
    var options: PushOptions

    init(parsing arguments: ParsedArguments) throws {
        accountName = arguments.value("account")
        filePath = arguments.value("file")
        feedURLOption = arguments.value("feed-url")
        statePath = arguments.value("state")
        printsJSON = arguments.flag("json")
        wait = try BridgeOptions.wait(arguments)
        let maxText = arguments.value("max") ?? "20"
        guard let max = Int(maxText), max >= 0 else {
            throw CLIError.invalidValue(
                value: maxText, option: "--max <n>", reason: "Give a whole number of posts, 0 or more.")
        }
        var since: Date?
        if let text = arguments.value("since") {
            guard let date = OrgTimestamp(text.count == 10 ? text + " 00:00" : text).instant else {
                throw CLIError.invalidValue(
                    value: text, option: "--since <date>",
                    reason: "Give a date such as 2026-05-01, or an Org timestamp such as 2026-05-01T10:00:00+0200.")
            }
            since = date
        }
        options = PushOptions(
            maxNewPosts: max, since: since, all: arguments.flag("all"), dryRun: arguments.flag("dry-run"),
            replies: ReplyPolicy(rawValue: arguments.value("replies") ?? "link") ?? .link,
            mirrorsMentionOnlyPosts: arguments.flag("mention-posts"))
    }

    func validate() throws {
        if options.all, options.since != nil {
            throw CLIError.validation("Please give either '--all' or '--since', not both.")
        }
        if let url = feedURLOption, !FeedFileOptions.isHTTPURL(url) {
            throw CLIError.invalidValue(
                value: url, option: FeedFileOptions.feedURLOption.synopsis,
                reason: "Give the http:// or https:// URL your social.org file is published at.")
        }
    }

    func run(in context: CommandContext) async throws {
        var feedOptions = FeedFileOptions(path: filePath ?? "-")
        feedOptions.feedURLOption = feedURLOption
        guard let feedURL = try feedOptions.feedURL(in: context) else {
            throw CLIError.validation(
                "The bridge needs the URL the feed is published at: give --feed-url, set ORGSOCIAL_FEED_URL, or "
                    + "set feedURL with 'orgsocial config set feedURL URL'.")
        }
        let feed = try await FeedFile.read(fileOrURL: filePath ?? feedURL, in: context)
        let run = try await BridgeRun.begin(statePath: statePath, wait: wait, account: accountName, in: context)
        defer { run.end() }
        var pushOptions = options
        // ORGSOCIAL_NOW moves the clock, as it does for the other commands.
        let offset = try context.now().timeIntervalSince(Date())
        pushOptions.now = { Date().addingTimeInterval(offset) }
        pushOptions.loadImage = BridgeImageLoader(feedPath: filePath, context: context).load
        var reports: [PushReport] = []
        var failed = false
        for (account, client) in run.accounts {
            let started = context.clock()
            do {
                let report = try await BridgePusher(state: run.state, client: client).push(
                    account: account, feed: feed, feedURL: feedURL, options: pushOptions)
                reports.append(report)
                if !options.dryRun {
                    try await run.state.recordRun(
                        RunRecord(
                            feed: feedURL, account: account.name, startedAt: started, finishedAt: context.clock(),
                            counts: report.counts))
                }
            } catch let error as CancellationError {
                throw error
            } catch {
                failed = true
                let message = (error as? any LocalizedError)?.errorDescription ?? "\(error)"
                context.report("Error: pushing to \(account.name) stopped: \(message)")
                if !options.dryRun {
                    try? await run.state.recordRun(
                        RunRecord(
                            feed: feedURL, account: account.name, startedAt: started, finishedAt: context.clock(),
                            counts: RunCounts(), error: message))
                }
            }
        }
        if printsJSON {
            context.write(try JSONOutput.text(reports.map(PushReportJSON.init)))
        } else {
            for report in reports { PushReportText.write(report, to: context) }
        }
        if failed { throw CLIError.exit(1) }
    }
}
