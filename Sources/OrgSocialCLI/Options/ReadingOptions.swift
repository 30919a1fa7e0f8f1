import Foundation
import OrgSocial
import OrgSocialClient
import OrgSocialText
import Synchronization

/// The options the reading commands share (`timeline`, `thread`, `notifications`, `poll-results`): where
/// the reader's own feed is, the relay switches, and `--verbose`; plus the fetching they all do.
struct ReadingOptions {
    /// `--feed-url <url>`.
    static let feedURLOption = OptionDefinition.value(
        "feed-url", valueName: "url",
        help: "Your feed's URL; its #+FOLLOW: list is read (default, for the configured file: "
            + "$ORGSOCIAL_FEED_URL, else \"feedURL\" in the configuration).")
    /// `-f, --file <file>`.
    static let fileOption = OptionDefinition.value(
        "file", short: "f",
        help: "Read your own feed from this local file instead of its URL (default: $ORGSOCIAL_FILE, else "
            + "\"file\" in the configuration).")
    /// `--no-relay`.
    static let noRelayOption = OptionDefinition.flag(
        "no-relay", help: "Read the feeds you follow directly, even when a relay is configured.")
    /// `--relay <url>`.
    static let relayOption = OptionDefinition.value(
        "relay", valueName: "url",
        help: "A relay to ask too, falling back to the feeds you follow when it fails (default: "
            + "$ORGSOCIAL_RELAY, else \"relayURL\" in the configuration).")
    /// `--verbose`.
    static let verboseOption = OptionDefinition.flag("verbose", help: "List every feed that could not be read.")

    /// The definitions, in help order.
    static let definitions = [
        feedURLOption, fileOption, noRelayOption, relayOption, verboseOption, ServerTimeout.option,
        RefreshOption.option,
    ]

    /// `--feed-url`.
    var feedURLOption: String?
    /// `--file`, if given (``ownFeedPath(in:)`` falls back to the configured file).
    var path: String?
    /// `--relay`.
    var relayURL: String?
    /// `--verbose`.
    var isVerbose: Bool
    /// `--no-relay`.
    var usesNoRelay: Bool
    /// `--mirror`, for the commands that read a mirror (``MirrorOptions``).
    var mirrorOption: String?

    /// Reads the shared options.
    init(parsing arguments: ParsedArguments) {
        feedURLOption = arguments.value("feed-url")
        path = arguments.value("file")
        relayURL = arguments.value("relay")
        isVerbose = arguments.flag("verbose")
        usesNoRelay = arguments.flag("no-relay")
        mirrorOption = arguments.value("mirror")
    }

    /// Checks the URL, and refuses `--relay` for the commands that do not use a relay yet.
    /// - Parameter allowsRelay: whether the command reads through a relay.
    /// - Throws: ``CLIError`` usage errors.
    func validate(allowsRelay: Bool = false) throws {
        try FeedFileOptions.checkFeedURLOption(feedURLOption)
        try MirrorOptions.validate(mirrorOption, relayOption: relayURL)
        if let mirrorOption, mirrorOption != "none", usesNoRelay {
            throw CLIError.validation(
                "Give either --mirror or --no-relay, not both: --no-relay reads the feeds themselves.")
        }
        if let relayURL, allowsRelay {
            if usesNoRelay {
                throw CLIError.invalidValue(
                    value: relayURL, option: Self.relayOption.synopsis,
                    reason: "Give either --relay or --no-relay, not both.")
            }
            if !FeedFileOptions.isHTTPURL(relayURL) {
                throw CLIError.invalidValue(
                    value: relayURL, option: Self.relayOption.synopsis,
                    reason: "Give the relay's http:// or https:// URL.")
            }
        } else if let relayURL {
            throw CLIError.invalidValue(
                value: relayURL, option: Self.relayOption.synopsis,
                reason: "Relays are not supported yet; leave out --relay (feeds are read directly).")
        }
    }

    /// The reader's feed URL: `--feed-url`, else the configured one (`ORGSOCIAL_FEED_URL`, the
    /// configuration) unless `--file` names another file than the configured one.
    /// - Throws: ``CLIError`` for a malformed environment or configuration.
    func ownFeedURL(in context: CommandContext) throws -> String? {
        try FeedFileOptions(path: path, feedURL: feedURLOption).feedURL(in: context)
    }

    /// The reader's local feed file: `--file`, else the configured file, else `nil` (the feed is read from
    /// its URL). The configured file is the configured `feedURL`'s: with a `--feed-url` naming another
    /// feed (or no `feedURL` configured), that feed is read from its URL and the file is left alone, so
    /// that its posts are never shown under another feed's URLs.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)`` for a broken configuration file.
    func ownFeedPath(in context: CommandContext) throws -> String? {
        if let path { return path }
        guard let configured = try FeedFileOptions.configuredFile(in: context) else { return nil }
        if let feedURLOption {
            guard let configuredURL = try FeedFileOptions.configuredFeedURL(in: context),
                FeedURL.same(configuredURL, feedURLOption)
            else { return nil }
        }
        return configured
    }

    /// The relay to list feeds from: `nil` with `--no-relay`, else `--relay`, `ORGSOCIAL_RELAY` or the
    /// configuration's `relayURL`.
    /// - Throws: ``CLIError`` for a malformed environment or configuration.
    func relayURL(in context: CommandContext) throws -> String? {
        usesNoRelay ? nil : try RelayOptions.relayURL(option: relayURL, in: context)
    }

    /// The mirror to read from (``MirrorOptions/client(option:relayOption:readsFeeds:hasDefaultRelay:in:)``):
    /// `nil` with `--no-relay`, or when a relay given as strongly or more wins.
    /// - Parameters:
    ///   - hasDefaultRelay: whether the command asks the default relay when none is configured.
    ///   - context: the command's context.
    /// - Returns: A client for the mirror, or `nil`.
    /// - Throws: ``CLIError`` for a malformed environment or configuration.
    func mirror(hasDefaultRelay: Bool = false, in context: CommandContext) throws -> MirrorClient? {
        try MirrorOptions.client(
            option: mirrorOption, relayOption: relayURL, readsFeeds: usesNoRelay, hasDefaultRelay: hasDefaultRelay,
            in: context)
    }

    /// The feeds in the "block" setting (`$ORGSOCIAL_BLOCK` over the configuration file). Every reading
    /// command leaves their posts out and never downloads them, through ``TimelineOptions/blocks(feedURL:)``.
    /// - Throws: ``CLIError`` for an unreadable configuration.
    static func blockedFeeds(in context: CommandContext) throws -> Set<String> {
        Set(try ConfigurationFile.readingSettings(in: context).blockedFeeds)
    }

    /// The timeline options of a command that reads the follows directly (never a relay's feed list): the
    /// block list and "now".
    /// - Parameters:
    ///   - now: the current time.
    ///   - context: the command's context.
    /// - Returns: The options, with ``TimelineOptions/useRelay`` off.
    /// - Throws: ``CLIError`` for an unreadable configuration.
    static func directOptions(now: Date, in context: CommandContext) throws -> TimelineOptions {
        TimelineOptions(useRelay: false, blockedFeeds: try blockedFeeds(in: context), now: now)
    }

    /// The message when nothing says where the reader's feed is.
    static let notConfiguredMessage = """
        No feed is configured, so there is nobody to follow yet. Give your feed with --feed-url URL, \
        set ORGSOCIAL_FEED_URL, or save "feedURL" in the configuration ('orgsocial signup' does it); or \
        read a local file with --file social.org; or read a relay's public timeline with --relay URL.
        """

    /// A feed fetcher over the context's transport with the cache in `$XDG_CACHE_HOME/orgsocial/feeds`,
    /// giving up on a silent server after the command's ``ServerTimeout`` (a feed that keeps sending may
    /// take up to the fetcher's total budget, or the timeout if that is longer).
    static func makeFetcher(in context: CommandContext) -> FeedFetcher {
        var configuration = FeedFetcher.Configuration(
            cacheDirectory: FeedDiskCache.defaultDirectory(environment: context.environment), userAgent: CLI.userAgent)
        // One bound for silence and for the whole read: a server that trickles a byte at a time is given up on
        // after the same --timeout as one that sends nothing.
        configuration.connectTimeout = context.serverTimeout
        configuration.totalTimeout = context.serverTimeout
        configuration.refreshesCache = context.refreshesFeeds
        return FeedFetcher(transport: context.makeTransport(), configuration: configuration)
    }

    /// Reads the reader's feed and its follows (plus `extraFeeds`), showing progress on a terminal and
    /// reporting failed feeds at the end. Without a feed of the reader's own, only `extraFeeds` (and the
    /// relay's feeds, when the options use one) are read.
    /// - Throws: ``CLIError/exit(_:)`` when nothing is there to read or the reader's own feed cannot be
    ///   read.
    func fetchTimeline(
        options: TimelineOptions, extraFeeds: [String] = [], mirror: MirrorClient? = nil, in context: CommandContext
    ) async throws -> (timeline: Timeline, ownFeedURL: String?) {
        let ownFeedURL = try self.ownFeedURL(in: context)
        let ownFeedPath = try self.ownFeedPath(in: context)
        let ownFeed = try ownFeedPath.map { try FeedFile.read(at: $0, in: context) }
        let readsARelay = options.useRelay && options.relayURL != nil
        guard ownFeedURL != nil || ownFeed != nil || readsARelay || mirror != nil || !extraFeeds.isEmpty else {
            context.report(Self.notConfiguredMessage)
            throw CLIError.exit(1)
        }
        // A local file with no URL configured is still the reader's feed: its posts are addressed by the
        // file's URL, so that they are shown.
        let fileURL = ownFeed == nil ? nil : ownFeedPath.map { URL(fileURLWithPath: $0).absoluteString }
        let addressedFeedURL = ownFeedURL ?? fileURL
        // The relay is asked over the command's transport, with its timeout.
        let relayClient = options.useRelay ? options.relayURL.flatMap { URL(string: $0) } : nil
        let fetcher = TimelineFetcher(
            options: options, fetcher: Self.makeFetcher(in: context),
            relayClient: relayClient.map { RelayClient(baseURL: $0, transport: context.makeTransport()) },
            mirrorClient: mirror)
        let showsProgress = context.isStandardErrorTerminal
        let writer = ProgressWriter(context.writeStandardError)
        let progress: @Sendable (TimelineProgress) -> Void = { event in
            guard showsProgress, case .feedFinished(_, let done, let total) = event else { return }
            writer.writeOverLine("Reading feeds: \(done)/\(total)")
        }
        let timeline = try await fetcher.fetchTimeline(
            ownFeedURL: addressedFeedURL, ownFeed: ownFeed, extraFeeds: extraFeeds, progress: progress)
        if showsProgress { context.writeStandardError(Array("\r\u{1B}[K".utf8)) }
        if ownFeed == nil, let ownFeedURL, let failure = timeline.statuses.first(where: { $0.url == ownFeedURL }),
            case .error(let reason) = failure.outcome
        {
            context.report("Error: cannot read your own feed: \(reason)")
            throw CLIError.exit(1)
        }
        if case .followsAfterRelayFailure(let relayURL, let reason) = timeline.source {
            if ownFeedURL == nil, ownFeed == nil {
                context.report(
                    "Error: cannot read the public timeline: the relay \(relayURL) could not be used (\(reason)). "
                        + "Check your network connection and try again, or give another relay with --relay URL, or "
                        + "read the feeds you follow instead: set up your feed with 'orgsocial signup' (or give "
                        + "--feed-url URL, or --file social.org).")
                throw CLIError.exit(1)
            }
            context.report(
                "note: the relay \(relayURL) could not be used (\(reason)); reading the feeds you follow instead.")
        }
        switch timeline.source {
        case .followsAfterMirrorFailure(let mirrorURL, let reason):
            if ownFeedURL == nil, ownFeed == nil {
                context.report(
                    "Error: cannot read the public timeline: the mirror \(mirrorURL) could not be used (\(reason)). "
                        + "Check your network connection and try again, or give another mirror with --mirror URL, "
                        + "or read the feeds you follow instead: set up your feed with 'orgsocial signup' (or give "
                        + "--feed-url URL, or --file social.org).")
                throw CLIError.exit(1)
            }
            MirrorOptions.reportFailure(
                mirrorURL, reason: reason, instead: "reading the feeds you follow instead.", in: context)
        case .mirror(let mirrorURL, let direct) where !direct.isEmpty:
            let feeds = direct.count == 1 ? "1 feed" : "\(direct.count) feeds"
            context.report(
                "note: the mirror \(mirrorURL) does not have \(feeds) you follow; read from the feed itself: "
                    + direct.joined(separator: ", "))
        default: break
        }
        reportFailures(timeline.statuses, in: context)
        return (timeline, ownFeedURL)
    }

    /// Prints one line about failed feeds (all of them with `--verbose`) and any permanent redirects.
    func reportFailures(_ statuses: [FeedStatus], in context: CommandContext) {
        for status in statuses {
            if let moved = status.permanentRedirect {
                context.report("note: \(status.url) moved permanently to \(moved); update your #+FOLLOW: line.")
            }
        }
        let failures = statuses.filter(\.isFailure)
        guard !failures.isEmpty else { return }
        let feeds = statuses.count == 1 ? "feed" : "feeds"
        if isVerbose {
            context.report("\(failures.count) of \(statuses.count) \(feeds) could not be read:")
            for failure in failures {
                if case .error(let reason) = failure.outcome { context.report("  \(failure.url): \(reason)") }
            }
        } else {
            context.report(
                "\(failures.count) of \(statuses.count) \(feeds) could not be read (run with --verbose to list them).")
        }
    }
}

/// Writes progress lines from concurrent tasks, one at a time.
///
/// `@unchecked Sendable`: the output closure is not `Sendable`, but it is only ever called while
/// holding `lock`, so calls never overlap; the command writes to standard error itself only after the
/// timeline (and every progress call) has finished.
final class ProgressWriter: @unchecked Sendable {
    private let output: ([UInt8]) -> Void
    private let lock = Mutex(())

    /// Makes a writer over standard error.
    init(_ output: @escaping ([UInt8]) -> Void) {
        self.output = output
    }

    /// Writes text, every control character but line breaks and tabs made visible (``TerminalText``): notes
    /// and lines written here carry text from servers and feeds, as they do through `CommandContext.write`.
    func write(_ text: String) {
        lock.withLock { _ in output(Array(TerminalText.block(text).utf8)) }
    }

    /// Writes `text` over the terminal line the cursor is on (carriage return, then erase the line): the one
    /// escape sequence this writer sends itself.
    func writeOverLine(_ text: String) {
        lock.withLock { _ in output(Array(("\r\u{1B}[K" + TerminalText.block(text)).utf8)) }
    }
}
