import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial publish [--file <file>] [--force | --merge [--ours | --theirs]]`: uploads the local feed
/// file to its server.
struct PublishCommand: ParsableCommand {
    /// `-f, --file <file>`.
    static let fileOption = OptionDefinition.value(
        "file", short: "f",
        help: "The social.org file to upload (default: $ORGSOCIAL_FILE, else \"file\" in the configuration).")

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "publish",
            abstract: "Upload the feed file to its server.",
            discussion: """
                With a server that accepts PUT (such as 'orgsocial serve'; $ORGSOCIAL_TOKEN or \
                "publish.token" in the configuration), or after 'orgsocial signup' with the Org Social Host \
                and the saved vfile, the upload only replaces the version read just before (If-Match, when \
                the server sends an ETag). When the remote feed changed since you last published from here \
                (or was never published from here and differs from your file, like the feed a host creates \
                at sign-up), nothing is uploaded: pass --merge (or run 'orgsocial sync') to merge its \
                changes into your file first, or --force to replace it.

                With --merge: \(SyncCommand.mergeDiscussion)

                Prints the feed's URL.
                """,
            options: [
                fileOption, FeedFileOptions.feedURLOption,
                .flag("force", help: "Replace the remote feed even if it changed since you last published."),
                .flag("merge", help: "Merge the remote feed's changes into your file first (as 'orgsocial sync')."),
                SyncCommand.oursOption, SyncCommand.theirsOption,
            ])
    }

    /// `--file`, if given.
    var path: String?
    /// `--feed-url`, if given.
    var feedURLOption: String?
    /// `--force`.
    var replacesRemoteChanges: Bool
    /// `--merge`.
    var merges: Bool
    /// `--ours` / `--theirs`.
    var resolution: FeedMerge.Resolution

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        feedURLOption = arguments.value("feed-url")
        replacesRemoteChanges = arguments.flag("force")
        merges = arguments.flag("merge")
        resolution = try SyncCommand.resolution(in: arguments)
    }

    func validate() throws {
        if merges, replacesRemoteChanges {
            throw CLIError.validation("Pass --merge to keep the remote changes or --force to replace them, not both.")
        }
        if !merges, resolution != .none {
            throw CLIError.validation("--ours and --theirs settle the conflicts of a merge; pass --merge too.")
        }
        try Self.validate(path: path, feedURL: feedURLOption)
    }

    /// Checks `--file` and `--feed-url` (shared with `sync`).
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)``.
    static func validate(path: String?, feedURL feedURLOption: String?) throws {
        if let path { try FeedFileOptions(path: path).validate() }
        if let url = feedURLOption, !FeedFileOptions.isHTTPURL(url) {
            throw CLIError.invalidValue(
                value: url, option: FeedFileOptions.feedURLOption.synopsis,
                reason: "Give the http:// or https:// URL your social.org file is published at.")
        }
    }

    func run(in context: CommandContext) async throws {
        let path = try Self.localPath(path, in: context)
        let target = try PublishTarget.resolve(in: context, feedURLOption: feedURLOption)
        if merges {
            try await FeedSync(path: path, target: target, resolution: resolution).run(in: context)
            return
        }
        let publisher = FeedPublisher(transport: context.makeTransport())
        let local = try FeedFile.readBytes(at: path, in: context)
        let versions = PublishedVersions(environment: context.environment)
        let location = target.feedURL.absoluteString

        let precondition: WritePrecondition
        if let remote = try await publisher.fetch(target.feedURL) {
            if remote.feed.bytes == local {
                versions.record(local, for: target.feedURL)
                context.writeLine(location)
                context.report("Nothing to publish: \(location) already has this file.")
                return
            }
            let known = versions.digest(for: target.feedURL)
            // Both methods: the remote feed must be what was last published from here.
            if !replacesRemoteChanges, known != PublishedVersions.digest(of: remote.feed.bytes) {
                throw CLIError.remoteChanged(url: location, publishedBefore: known != nil)
            }
            precondition = remote.etag.map(WritePrecondition.matching) ?? .none
        } else {
            precondition = .noExistingFile
        }
        do {
            _ = try await target.upload(local, precondition: precondition, with: publisher)
        } catch OrgSocialClientError.conflict {
            throw CLIError.remoteChanged(url: location, publishedBefore: true)
        }
        versions.record(local, for: target.feedURL)
        context.writeLine(location)
        context.report("Published \(path) (\(local.count) bytes) to \(location).")
    }

    /// `--file`, else `ORGSOCIAL_FILE`, else `file` in the configuration (shared with `sync`).
    static func localPath(_ path: String?, in context: CommandContext) throws -> String {
        if let path { return path }
        if let path = context.environment["ORGSOCIAL_FILE"], !path.isEmpty { return path }
        if let path = try ConfigurationFile.load(in: context).file, !path.isEmpty { return path }
        throw CLIError.missingOption(Self.fileOption.synopsis)
    }
}
