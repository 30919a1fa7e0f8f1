import Bridge
import Foundation
import TootClient

/// `orgsocial bridge status [--json]`: per account, its cursors, mapped posts, last run and last error.
struct BridgeStatusCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "status",
            abstract: "Show each account's cursors, mapped posts, last run and last error.",
            options: [.flag("json", help: "Print the status as JSON."), BridgeOptions.stateOption])
    }

    /// `--json`.
    var printsJSON: Bool
    /// `--state`.
    var statePath: String?

    init(parsing arguments: ParsedArguments) throws {
        printsJSON = arguments.flag("json")
        statePath = arguments.value("state")
    }

    /// One run in the JSON output.
    struct Run: Encodable {
        /// The feed.
        var feed: String
        /// Start (ISO 8601).
        var startedAt: String
        /// End (ISO 8601).
        var finishedAt: String
        /// What it did.
        var counts: RunCounts
        /// Why it failed, or `null`.
        var error: String?

        /// Makes one from a record.
        init(_ record: RunRecord) {
            feed = record.feed
            startedAt = BridgeOptions.timestamp(record.startedAt)
            finishedAt = BridgeOptions.timestamp(record.finishedAt)
            counts = record.counts
            error = record.error
        }

        /// Writes every field, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(feed, forKey: .feed)
            try container.encode(startedAt, forKey: .startedAt)
            try container.encode(finishedAt, forKey: .finishedAt)
            try container.encode(counts, forKey: .counts)
            try container.encode(error, forKey: .error)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case feed, startedAt, finishedAt, counts, error
        }
    }

    /// One cursor in the JSON output.
    struct Cursor: Encodable {
        /// The feed.
        var feed: String
        /// `push` or `pull`.
        var direction: String
        /// The position.
        var value: String
        /// When it moved (ISO 8601).
        var updatedAt: String
    }

    /// One account in the JSON output.
    struct Entry: Encodable {
        /// The account's name.
        var name: String
        /// The instance URL.
        var instance: String
        /// Its cursors.
        var cursors: [Cursor]
        /// Posts mapped from the feed.
        var postsFromFeed: Int
        /// Posts mapped from the account.
        var postsFromAccount: Int
        /// The counts over every run.
        var totals: RunCounts
        /// The latest run, or `null`.
        var lastRun: Run?
        /// The latest failed run, or `null`.
        var lastError: Run?

        /// Writes every field, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(instance, forKey: .instance)
            try container.encode(cursors, forKey: .cursors)
            try container.encode(postsFromFeed, forKey: .postsFromFeed)
            try container.encode(postsFromAccount, forKey: .postsFromAccount)
            try container.encode(totals, forKey: .totals)
            try container.encode(lastRun, forKey: .lastRun)
            try container.encode(lastError, forKey: .lastError)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case name, instance, cursors, postsFromFeed, postsFromAccount, totals, lastRun, lastError
        }
    }

    func run(in context: CommandContext) async throws {
        var entries: [Entry] = []
        guard let state = try await BridgeOptions.existingState(option: statePath, in: context) else {
            context.write(try printsJSON ? JSONOutput.text(entries) : BridgeOptions.noAccountsMessage + "\n")
            return
        }
        for account in try await state.accounts() {
            let status = try await state.status(ofAccount: account.name)
            entries.append(
                Entry(
                    name: account.name, instance: account.instanceURL.absoluteString,
                    cursors: status.cursors.map {
                        Cursor(
                            feed: $0.feed, direction: $0.direction.rawValue, value: $0.value,
                            updatedAt: BridgeOptions.timestamp($0.updatedAt))
                    }, postsFromFeed: status.mappedPosts[.feed] ?? 0,
                    postsFromAccount: status.mappedPosts[.account] ?? 0, totals: status.totals,
                    lastRun: status.lastRun.map(Run.init), lastError: status.lastError.map(Run.init)))
        }
        if printsJSON {
            context.write(try JSONOutput.text(entries))
            return
        }
        if entries.isEmpty {
            context.writeLine(BridgeOptions.noAccountsMessage)
            return
        }
        for entry in entries {
            context.writeLine("\(entry.name) (\(entry.instance))")
            context.writeLine(
                "  posts mapped: \(entry.postsFromFeed) from the feed, \(entry.postsFromAccount) from the account")
            for cursor in entry.cursors {
                context.writeLine(
                    "  \(cursor.direction) cursor for \(cursor.feed): \(cursor.value) (\(cursor.updatedAt))")
            }
            if let run = entry.lastRun {
                let outcome = run.error.map { "failed: \($0)" } ?? "completed"
                context.writeLine(
                    "  last run: \(run.finishedAt), \(outcome); pushed \(run.counts.pushed), edited \(run.counts.edited), "
                        + "deleted \(run.counts.deleted), pulled \(run.counts.pulled)")
            } else {
                context.writeLine("  last run: never")
            }
            if let failure = entry.lastError, failure.finishedAt != entry.lastRun?.finishedAt {
                context.writeLine("  last error: \(failure.finishedAt): \(failure.error ?? "")")
            }
        }
    }
}
