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
                the server sends an ETag). It says what the upload does to the remote feed in numbers \
                ("adds 1, edits 0, removes 0 posts"). When the remote feed changed since this file last \
                published or synced it (another copy of the file published, say), or this file never \
                published or synced it, nothing is uploaded, since that could delete posts this file never \
                deleted: run 'orgsocial sync' (or pass --merge) to merge its changes into your file first, or \
                pass --force to replace it. A remote feed none of whose posts is in your file (another \
                person's feed, or a new file) is refused the same way. The host's own starting feed after \
                'orgsocial signup' may be replaced.

                With --merge: \(SyncCommand.mergeDiscussion)

                Prints the feed's URL; with --json, one JSON object: the address, the file and where it was published.
                """,
            options: [
                fileOption, FeedFileOptions.feedURLOption,
                .flag("force", help: "Replace the remote feed even if it changed elsewhere or is another feed."),
                .flag("merge", help: "Merge the remote feed's changes into your file first (as 'orgsocial sync')."),
                SyncCommand.oursOption, SyncCommand.theirsOption, ServerTimeout.option,
            ] + WriteReporter.definitions + PublishTargetOptions.definitions)
    }

    /// `--file`, if given.
    var path: String?
    /// `--feed-url`, if given.
    var feedURLOption: String?
    /// Where and how to publish, when given on the command line.
    var targetOptions: PublishTargetOptions
    /// `--verbose` and `--json`.
    var output: WriteReporter
    /// `--force`.
    var replacesRemoteChanges: Bool
    /// `--merge`.
    var merges: Bool
    /// `--ours` / `--theirs`.
    var resolution: FeedMerge.Resolution

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        feedURLOption = arguments.value("feed-url")
        targetOptions = PublishTargetOptions(parsing: arguments)
        output = WriteReporter(parsing: arguments)
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
        try FeedFileOptions.checkFeedURLOption(feedURLOption)
    }

    func run(in context: CommandContext) async throws {
        let path = try FeedFileOptions.path(option: path, in: context)
        let target = try PublishTarget.resolve(in: context, feedURLOption: feedURLOption, options: targetOptions)
        if merges {
            try await FeedSync(path: path, target: target, resolution: resolution, output: output).run(in: context)
            return
        }
        let local = try FeedFile.readBytes(at: path, in: context)
        let location = target.feedURL.absoluteString
        let outcome: FeedSynchronizer.Outcome
        do {
            outcome = try await FeedSync.synchronizer(path: path, target: target, in: context).publish(
                local, force: replacesRemoteChanges)
        } catch let error as FeedSyncError {
            switch error {
            case .unrelatedFeed:
                throw CLIError.publishRefused(path: path, reason: error.localizedDescription, unrelated: true)
            case .remoteHasChangesElsewhere:
                throw CLIError.publishRefused(path: path, reason: error.localizedDescription, unrelated: false)
            case .remoteKeptChanging, .conflicts:
                throw CLIError.remoteKeptChanging(path: path, url: location)
            case .unpublishedLocalChanges, .changeAddsErrors, .remoteErrors:
                throw error  // only an edit (FeedSynchronizer.edit) throws these
            }
        }
        if !outcome.uploaded {
            context.report("Nothing to publish: \(location) already has this file.")
        } else {
            context.report(
                "Published \(path) (\(local.count) bytes) to \(location): \(outcome.toRemote.summary)"
                    + (outcome.createdRemote ? "; there was no feed there." : "."))
        }
        FeedSync.reportLocal(
            outcome.localFile, baseNotSaved: outcome.baseNotSaved, path: path, location: location, in: context)
        output.published(to: location, uploaded: outcome.uploaded)
        if outcome.uploaded { await output.announce(target.feedURL, in: context) }
        try output.finish(address: location, file: path, in: context)
    }
}
