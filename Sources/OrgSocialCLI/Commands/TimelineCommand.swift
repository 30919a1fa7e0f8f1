import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial timeline`: the posts of the feeds you follow, newest first.
struct TimelineCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "timeline",
            abstract: "Show the posts of the feeds you follow, newest first.",
            discussion: """
                Reads your feed (--feed-url, or --file) and every feed in its #+FOLLOW: list (with a relay, \
                every feed the relay lists instead, falling back to your follows if it fails), at most 16 at \
                once and 4 per server, with conditional requests: unchanged feeds come from the cache in \
                $XDG_CACHE_HOME/orgsocial/feeds. Reactions, empty votes, group posts, bot posts, scheduled \
                posts (dated more than a minute ahead) and mention-only posts not meant for you are left out, and so are feeds in the "block" \
                setting ('orgsocial config add block URL'); "languages" in the configuration is the default of \
                --lang. A feed that cannot be read is reported at the end and never stops the timeline.

                With no feed and no relay configured, shows the public timeline of the default relay \
                (https://relay.org-social.org; $ORGSOCIAL_DEFAULT_RELAY overrides it).

                With a mirror (--mirror, $ORGSOCIAL_MIRROR, "mirror" in the configuration, or the default mirror \
                https://mirror.org-social.org/api when no relay is given) the followed feeds' posts come from the \
                mirror in one request, your own from your feed; a followed feed the mirror lacks is read \
                directly, and when the mirror fails the feeds are read instead, with one line on standard error. \
                --mirror none turns it off.

                Pages: --limit posts at a time; when there are more, a last line on standard error gives \
                the option that shows the next page (--before <URL of the last post shown>, or --page <n+1>), \
                and --json gives it as "next" (e.g. ["--before", "<URL>"]; absent on the last page). \
                On a terminal the posts go through $PAGER (default: less -FRX) unless --no-pager.

                With --follow the command keeps running and prints each new post as it appears (with --json, \
                one object per line), reading the feeds again every --interval seconds with conditional \
                requests, so an unchanged feed costs one 304. A feed that cannot be read gets a line on \
                standard error and is tried again; Ctrl-C ends it (exit status 130).
                """,
            options: ReadingOptions.definitions + [
                MirrorOptions.option,
                .value("days", valueName: "n", help: "Only posts from the last <n> days."),
                .value(
                    "lang", valueName: "codes",
                    help: "Only these languages, e.g. en,es or \"en es\" (posts without LANG are kept)."),
                .value("limit", valueName: "n", help: "Show at most <n> posts (one page).", defaultValue: "50"),
                .value("page", valueName: "n", help: "Show the <n>th page of <limit> posts."),
                .value(
                    "before", valueName: "id",
                    help: "Only posts older than this post ID or post URL (the next page after that post)."),
                Pager.option,
                .flag("json", help: "Print the posts and feed statuses as JSON (with --follow, one post per line)."),
                .flag("follow", help: "Keep running and print new posts as they appear."),
                .value(
                    "interval", valueName: "seconds", help: "With --follow, read the feeds again every <seconds>.",
                    defaultValue: "60"),
                .flag(
                    "stats",
                    help: "Print to standard error how many feeds were downloaded, unchanged (304) or failed, "
                        + "the bytes downloaded and the time taken."),
            ])
    }

    var reading: ReadingOptions
    var days: String?
    /// `--lang`, checked: the languages shown.
    var languages: [String]?
    var limitText: String
    var printsJSON: Bool
    /// `--stats`.
    var printsStatistics: Bool
    /// `--page`, if given.
    var pageText: String?
    /// `--before`, if given.
    var before: String?
    /// `--no-pager`.
    var pager: Pager
    /// `--follow`.
    var follows: Bool
    /// `--interval`, as given.
    var intervalText: String
    /// `--interval` in seconds (checked by ``validate()``).
    var interval: Int { Int(intervalText) ?? 60 }

    init(parsing arguments: ParsedArguments) throws {
        reading = ReadingOptions(parsing: arguments)
        days = arguments.value("days")
        languages = try arguments.value("lang").map { try LanguageInput.list($0, from: .option("--lang <codes>")) }
        limitText = arguments.value("limit") ?? "50"
        printsJSON = arguments.flag("json")
        printsStatistics = arguments.flag("stats")
        pageText = arguments.value("page")
        before = arguments.value("before")
        pager = Pager(parsing: arguments)
        follows = arguments.flag("follow")
        intervalText = arguments.value("interval") ?? "60"
    }

    func validate() throws {
        try reading.validate(allowsRelay: true)
        if let days, Int(days).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: days, option: "--days <n>", reason: "Give a whole number of days, at least 1.")
        }
        if Int(limitText).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: limitText, option: "--limit <n>", reason: "Give a number of posts, at least 1.")
        }
        if let pageText, Int(pageText).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: pageText, option: "--page <n>", reason: "Give a page number, at least 1.")
        }
        if let before, Self.instant(before: before) == nil {
            throw CLIError.invalidValue(
                value: before, option: "--before <id>",
                reason: "Give a post ID such as 2026-01-02T03:04:05+0000, or a post URL ending in #<ID>.")
        }
        if before != nil, pageText != nil {
            throw CLIError.validation("Pass --before or --page, not both: each picks the page to show.")
        }
        if Int(intervalText).map({ $0 < 1 }) ?? true {
            throw CLIError.invalidValue(
                value: intervalText, option: "--interval <seconds>",
                reason: "Give a whole number of seconds, at least 1.")
        }
        if follows, before != nil || pageText != nil {
            throw CLIError.validation(
                "--follow prints new posts as they appear, which has no pages; leave out --\(before != nil ? "before" : "page")."
            )
        }
    }

    /// The instant of a `--before` value: a post ID, or the ID after `#` in a post URL.
    static func instant(before text: String) -> Date? {
        let id = text.split(separator: "#", omittingEmptySubsequences: false).last.map(String.init) ?? text
        return OrgTimestamp(id).sortInstant
    }

    func run(in context: CommandContext) async throws {
        let now = try context.now()
        let hasNoFeed = try reading.ownFeedPath(in: context) == nil && reading.ownFeedURL(in: context) == nil
        // --follow reads the feeds (or the relay) again and again, with conditional requests.
        let mirror = follows ? nil : try reading.mirror(hasDefaultRelay: hasNoFeed, in: context)
        var relayURL = mirror == nil ? try reading.relayURL(in: context) : nil
        if mirror == nil, relayURL == nil, !reading.usesNoRelay, hasNoFeed {
            let publicRelay = ConfigurationKey.defaultRelayURL(environment: context.environment)
            relayURL = publicRelay
            context.report(
                "note: no feed is configured, so this is the public timeline of \(publicRelay). To read the feeds "
                    + "you follow, set yours up: 'orgsocial signup', or 'orgsocial config set feedURL URL'.")
        }
        var options = TimelineOptions(relayURL: relayURL, useRelay: relayURL != nil, now: now)
        options.maxPostAgeDays = days.flatMap { Int($0) }
        let settings = try ConfigurationFile.readingSettings(in: context)
        options.blockedFeeds = Set(settings.blockedFeeds)
        options.languageFilter = languages ?? settings.languages
        // Enough of the mirror's newest posts for the page asked for.
        let limit = Int(limitText) ?? 50
        let page = pageText.flatMap { Int($0) } ?? 1
        options.mirrorPostCount = before == nil ? page * limit + 1 : max(1_000, page * limit + 1)
        if follows {
            try await follow(options: options, in: context)
            return
        }
        let started = ContinuousClock.now
        let (timeline, _) = try await reading.fetchTimeline(options: options, mirror: mirror, in: context)
        if printsStatistics {
            context.report(Self.statistics(of: timeline.statuses, elapsed: ContinuousClock.now - started))
        }
        var candidates = timeline.posts[...]
        if let before, let instant = Self.instant(before: before) {
            // After the post itself when it is shown (posts of the same second after it stay), else by time.
            if let index = candidates.firstIndex(where: { $0.url == before || $0.post.id == before }) {
                candidates = candidates[(index + 1)...]
            } else {
                candidates = candidates.drop { $0.instant >= instant }
            }
        }
        candidates = candidates.dropFirst((page - 1) * limit)
        let posts = Array(candidates.prefix(limit))
        let hasMore = candidates.count > limit
        // The options that show the next page: after the last post shown, or the next page number.
        let next: [String]? =
            !hasMore ? nil : pageText == nil ? posts.last.map { ["--before", $0.url] } : ["--page", "\(page + 1)"]
        if printsJSON {
            struct Output: Encodable {
                var posts: [PostJSON]
                var feeds: [FeedStatusJSON]
                var source: String
                /// The options that show the next page (`["--before", URL]` or `["--page", "3"]`); absent
                /// on the last page.
                var next: [String]?
            }
            context.write(
                try JSONOutput.text(
                    Output(
                        posts: posts.map(PostJSON.init), feeds: timeline.statuses.map(FeedStatusJSON.init),
                        source: Self.sourceName(timeline.source), next: next)))
            return
        }
        if posts.isEmpty {
            context.report("No posts to show.")
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: now)
        pager.show(posts.map { renderer.render($0) }.joined(), in: context)
        if let next {
            context.report("More posts: run the same command with \(next.joined(separator: " ")).")
        }
    }

    /// The `--stats` line: `stats: 1001 feeds (1000 downloaded, 0 not modified, 1 failed), 12345678 bytes
    /// downloaded, 2.31 s`.
    /// - Parameters:
    ///   - statuses: the feeds' statuses.
    ///   - elapsed: the time the feeds took.
    /// - Returns: The one-line summary.
    static func statistics(of statuses: [FeedStatus], elapsed: Duration) -> String {
        var downloaded = 0
        var notModified = 0
        var failed = 0
        for status in statuses {
            switch status.outcome {
            case .ok: downloaded += 1
            case .notModified: notModified += 1
            case .error: failed += 1
            }
        }
        let bytes = statuses.reduce(0) { $0 + $1.downloadedBytes }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return "stats: \(statuses.count) feeds (\(downloaded) downloaded, \(notModified) not modified, \(failed) "
            + "failed), \(bytes) bytes downloaded, \(String(format: "%.2f", seconds)) s"
    }

    /// The `source` of the JSON output: `relay`, `follows`, `follows-after-relay-failure`, `mirror` or
    /// `follows-after-mirror-failure`.
    static func sourceName(_ source: TimelineSource) -> String {
        switch source {
        case .relay: "relay"
        case .follows: "follows"
        case .followsAfterRelayFailure: "follows-after-relay-failure"
        case .mirror: "mirror"
        case .followsAfterMirrorFailure: "follows-after-mirror-failure"
        }
    }
}
