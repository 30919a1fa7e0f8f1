import Foundation
import OrgSocial

/// `orgsocial sync [--file <file>] [--ours | --theirs]`: merges the remote feed and the local file,
/// then publishes the result and writes it locally (see ``FeedSync``).
struct SyncCommand: ParsableCommand {
    /// `--ours`.
    static let oursOption = OptionDefinition.flag(
        "ours", help: "Settle every conflict with your version (the local file's).")
    /// `--theirs`.
    static let theirsOption = OptionDefinition.flag(
        "theirs", help: "Settle every conflict with the remote version.")

    /// The paragraphs `sync --help` and `publish --help` share.
    static let mergeDiscussion = """
        The merge is three-way, post by post, like 'git merge': the base is the version last published \
        from here (kept in ~/.local/state/orgsocial). Posts added on either side are kept, in date order; \
        a post edited or deleted on one side only is edited or deleted; header keywords (#+TITLE, …) are \
        merged the same way, and #+FOLLOW, #+LINK, #+GROUP and #+CONTACT line by line. Everything else in \
        your file stays byte for byte. The result is uploaded with If-Match (once more if the remote \
        changed meanwhile) and written to your file.

        A post (or keyword) changed differently on both sides is a conflict: each is shown with your \
        version, the base and the remote version between <<<<<<< ||||||| ======= >>>>>>> lines, the \
        command exits with status 1, and nothing is written or published. Then edit your file so that \
        each conflicting post reads as you want it (the same as the remote version, or as you will \
        publish it) and sync again, or settle every conflict with one side: --ours keeps yours, --theirs \
        takes the remote's. Without a base (nothing was published from here yet), everything is an \
        addition and a post with the same ID but other text on both sides is a conflict.
        """

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "sync",
            abstract: "Merge the remote feed into your file, then publish.",
            discussion: mergeDiscussion + """


                Publishing is set up as for 'orgsocial publish'. Prints the feed's URL.
                """,
            options: [
                PublishCommand.fileOption, FeedFileOptions.feedURLOption, oursOption, theirsOption,
                ServerTimeout.option,
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
    /// `--ours` / `--theirs`.
    var resolution: FeedMerge.Resolution

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        feedURLOption = arguments.value("feed-url")
        targetOptions = PublishTargetOptions(parsing: arguments)
        output = WriteReporter(parsing: arguments)
        resolution = try Self.resolution(in: arguments)
    }

    /// `--ours` or `--theirs` (not both).
    /// - Throws: ``CLIError/validation(_:)`` when both are given.
    static func resolution(in arguments: ParsedArguments) throws -> FeedMerge.Resolution {
        switch (arguments.flag("ours"), arguments.flag("theirs")) {
        case (true, true):
            throw CLIError.validation("Choose one side for conflicts: pass --ours or --theirs, not both.")
        case (true, false): return .ours
        case (false, true): return .theirs
        case (false, false): return .none
        }
    }

    func validate() throws {
        try PublishCommand.validate(path: path, feedURL: feedURLOption)
    }

    func run(in context: CommandContext) async throws {
        let path = try FeedFileOptions.path(option: path, in: context)
        let target = try PublishTarget.resolve(in: context, feedURLOption: feedURLOption, options: targetOptions)
        try await FeedSync(path: path, target: target, resolution: resolution, output: output).run(in: context)
    }
}
