import Foundation
import OrgSocialClient

extension TimelineCommand {
    /// `--follow`: reads the timeline every `--interval` seconds (``TimelineFollower``, conditional reads
    /// through the feed cache) until interrupted, and prints each new post as it appears (a block, or one
    /// JSON object per line). A feed or relay that cannot be read gets one line on standard error, and one
    /// when it is back, never an exit; Ctrl-C ends the command (exit status 130).
    /// - Parameters:
    ///   - options: the timeline's options (relay, filters, blocks).
    ///   - context: the command's context.
    /// - Throws: ``CLIError/exit(_:)`` when nothing says what to read, or when interrupted.
    func follow(options: TimelineOptions, in context: CommandContext) async throws {
        let ownFeedURL = try reading.ownFeedURL(in: context)
        let ownFeedPath = try reading.ownFeedPath(in: context)
        let ownFeed = try ownFeedPath.map { try FeedFile.read(at: $0, in: context) }
        guard ownFeedURL != nil || ownFeed != nil || (options.useRelay && options.relayURL != nil) else {
            context.report(ReadingOptions.notConfiguredMessage)
            throw CLIError.exit(1)
        }
        // A local file with no URL configured is still the reader's feed, addressed by the file's URL.
        let fileURL = ownFeed == nil ? nil : ownFeedPath.map { URL(fileURLWithPath: $0).absoluteString }
        let relayBase = options.useRelay ? options.relayURL.flatMap { URL(string: $0) } : nil
        let fetcher = TimelineFetcher(
            options: options, fetcher: ReadingOptions.makeFetcher(in: context),
            relayClient: relayBase.map { RelayClient(baseURL: $0, transport: context.makeTransport()) })
        // "Now" runs on from the command's now (ORGSOCIAL_NOW, when set).
        let offset = try context.now().timeIntervalSinceNow
        let writer = ProgressWriter(context.writeStandardError)
        let interval = self.interval
        let onEvent: @Sendable (TimelineFollower.Event) -> Void = { event in
            switch event {
            case .feedLost(let url, let reason):
                writer.write("note: cannot read \(url) (\(reason)); trying again every \(interval) s.\n")
            case .feedBack(let url):
                writer.write("note: \(url) can be read again.\n")
            }
        }
        let follower = TimelineFollower(
            fetcher: fetcher, ownFeedURL: ownFeedURL ?? fileURL, ownFeed: ownFeed, interval: .seconds(interval),
            now: { Date().addingTimeInterval(offset) }, onEvent: onEvent)
        let usesColor = TimelineRenderer.usesColor(in: context)
        do {
            for try await entry in follower {
                if printsJSON {
                    context.write(try JSONOutput.line(PostJSON(entry)))
                } else {
                    context.write(TimelineRenderer(usesColor: usesColor, now: try context.now()).render(entry))
                }
            }
        } catch is CancellationError {
            // Interrupted (Ctrl-C, or the caller's task): the end of following, not a failure to report.
            throw CLIError.exit(Interruption.exitStatus)
        }
    }
}
