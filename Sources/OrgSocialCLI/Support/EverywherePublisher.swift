import Bridge
import Foundation
import OrgSocial

/// `--everywhere`, `--account` and `--state` of `post`, `reply` and `poll` (their `--json`, a
/// ``WriteReporter`` flag, prints each destination's outcome with `--everywhere`).
struct EverywhereOptions {
    /// `--everywhere`.
    static let everywhereFlag = OptionDefinition.flag(
        "everywhere",
        help: "Also post to every bridge account (or --account), after checking the post fits each of them.")
    /// The definitions, in help order.
    static let definitions = [everywhereFlag, BridgeOptions.accountOption, BridgeOptions.stateOption]

    /// `--everywhere`.
    var isEnabled: Bool
    /// `--account`.
    var account: String?
    /// `--state`.
    var statePath: String?

    /// Reads the options.
    init(parsing arguments: ParsedArguments) {
        isEnabled = arguments.flag("everywhere")
        account = arguments.value("account")
        statePath = arguments.value("state")
    }

    /// `--account` and `--state` mean something only with `--everywhere`.
    /// - Throws: ``CLIError/validation(_:)``.
    func validate() throws {
        if !isEnabled, account != nil || statePath != nil {
            throw CLIError.validation("'--account' and '--state' go with '--everywhere'; add it or drop them.")
        }
    }
}

/// Posts a new post to the feed and every bridge account (the Acarajé pattern): checks it
/// against every destination first, writes the feed, then posts to the accounts at the same time; prints
/// one line (or JSON object) per destination, and exits 1 when any failed.
enum EverywherePublisher {
    /// One destination's outcome in `--json`.
    struct Outcome: Encodable {
        /// The feed's URL or the account's name.
        var destination: String
        /// Whether the post went there.
        var ok: Bool
        /// The post's URL (the feed) or the status IDs (an account).
        var published: [String]
        /// Why not, or `null`.
        var error: String?

        /// Writes every field, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(destination, forKey: .destination)
            try container.encode(ok, forKey: .ok)
            try container.encode(published, forKey: .published)
            try container.encode(error, forKey: .error)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case destination, ok, published, error
        }
    }

    /// Composes the post with `makeDraft`, checks it, and publishes it everywhere.
    /// - Parameters:
    ///   - options: the feed file and URL.
    ///   - publishing: `--publish`/`--no-publish`.
    ///   - everywhere: the `--everywhere` options.
    ///   - context: the command's context.
    ///   - makeDraft: composes the post from the feed, its URL and "now".
    /// - Throws: ``CLIError`` (no feed URL, problems found, a destination failed), ``BridgeError``.
    static func publish(
        options: FeedFileOptions, publishing: PublishOptions, everywhere: EverywhereOptions, in context: CommandContext,
        makeDraft: @escaping @Sendable (_ feed: Feed, _ feedURL: String?, _ now: Date) throws -> PostDraft
    ) async throws {
        guard let feedURL = try options.feedURL(in: context) else {
            throw CLIError.validation(
                "Posting everywhere needs the URL the feed is published at (it names the post on every account): "
                    + "give --feed-url (or, for the configured file, set ORGSOCIAL_FEED_URL).")
        }
        let path = try options.path(in: context)
        let now = try context.now()
        let offset = now.timeIntervalSince(Date())
        let clock: @Sendable () -> Date = { Date().addingTimeInterval(offset) }
        let timeZone = context.timeZone
        var preview = try FeedFile.read(at: path, in: context, requiringFeed: !publishing.allowsAnyFile)
        let post = preview.append(try makeDraft(preview, feedURL, now), at: now, timeZone: timeZone)
        let run = try await BridgeRun.begin(
            statePath: everywhere.statePath, wait: .seconds(30), account: everywhere.account, in: context)
        defer { run.end() }
        let coordinator = PostEverywhere(
            feed: FeedPostChecking(feedURL: feedURL, now: clock),
            others: run.accounts.map {
                AccountPostingDestination(account: $0.account, client: $0.client, state: run.state, now: clock)
            })
        let problems = await coordinator.problems(with: post, feedURL: feedURL)
        if !problems.isEmpty {
            for (destination, list) in problems {
                context.report("Error: \(destination): " + list.map(\.description).joined(separator: "; ") + ".")
            }
            context.report("Nothing was posted. Change the post, or leave out an account with --account NAME.")
            throw CLIError.exit(1)
        }
        let outcomes = await coordinator.publish(feedURL: feedURL) {
            let id = try await FeedChange.apply(
                to: path, publishing: publishing, feedURLOption: options.feedURLOption, in: context
            ) { feed in
                let draft = try makeDraft(feed, feedURL, now)
                return feed.append(draft, at: now, timeZone: timeZone).id ?? feed.uniqueID(for: now, timeZone: timeZone)
            }
            let written = try FeedFile.read(at: path, in: context)
            guard let post = written.post(withID: id) else {
                throw CLIError.cannotRead(path: path, reason: "the new post \(id) is not in the file")
            }
            return (post, written)
        }
        if publishing.output.printsJSON {
            context.write(
                try JSONOutput.text(
                    outcomes.map {
                        Outcome(destination: $0.destination, ok: $0.ok, published: $0.published, error: $0.error)
                    }))
        } else {
            for outcome in outcomes {
                if outcome.ok {
                    context.writeLine("ok \(outcome.destination): \(outcome.published.joined(separator: " "))")
                } else {
                    context.writeLine("error \(outcome.destination): \(outcome.error ?? "failed")")
                }
            }
        }
        if outcomes.contains(where: { !$0.ok }) { throw CLIError.exit(1) }
    }
}
