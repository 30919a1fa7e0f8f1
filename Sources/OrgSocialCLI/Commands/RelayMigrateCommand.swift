import Foundation
import Relay

/// `orgsocial relay migrate --from <relay.sqlite> --to <postgres-url>`: copies a SQLite relay into an empty
/// PostgreSQL database.
struct RelayMigrateCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "migrate",
            abstract: "Copy a relay's SQLite database into an empty PostgreSQL database.",
            discussion: """
                Copies every row (crawl list and crawl state, profiles, posts, follows, votes, mentions, the \
                notification log, the saved files) in one transaction, keeping every id, so the relay \
                answers on PostgreSQL exactly as it did on SQLite. Stop the relay first, then start it again \
                with --db set to the URL. The target must hold no relay data yet.
                """,
            options: [
                .value("from", valueName: "path", help: "The relay's SQLite database.", isRequired: true),
                .value(
                    "to", valueName: "url", help: "A postgres:// URL of an empty (or new) PostgreSQL database.",
                    isRequired: true),
            ])
    }

    /// `--from`.
    var source: String
    /// `--to`.
    var target: String

    init(parsing arguments: ParsedArguments) throws {
        source = arguments.value("from") ?? ""
        target = arguments.value("to") ?? ""
    }

    func validate() throws {
        guard FileManager.default.fileExists(atPath: source) else {
            throw CLIError.validation("There is no relay database at \(source). Give the SQLite file with --from PATH.")
        }
        guard RelayConfiguration(databasePath: target).usesPostgres else {
            throw CLIError.validation(
                "--to must be a postgres:// or postgresql:// URL, such as postgres://relay@127.0.0.1/relay.")
        }
    }

    func run(in context: CommandContext) async throws {
        let counts = try await RelayDatabaseCopy.copy(fromSQLite: source, toPostgres: target)
        let shown = RelayConfiguration(databasePath: target).databaseDisplayName
        context.write(
            "Copied \(counts["feeds"] ?? 0) feeds, \(counts["profiles"] ?? 0) profiles, \(counts["posts"] ?? 0) posts "
                + "and \(counts["notifications"] ?? 0) notifications from \(source) to \(shown).\n")
    }
}
