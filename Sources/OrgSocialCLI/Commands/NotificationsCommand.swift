import Foundation
import OrgSocial
import OrgSocialClient
import OrgSocialText

/// `orgsocial notifications`: mentions of you, and replies, reactions, boosts and votes on your posts.
struct NotificationsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "notifications",
            abstract: "Show mentions, replies, reactions, boosts and votes.",
            discussion: """
                Computed from the feeds you follow (and yours), newest first; activity from feeds you don't \
                follow is not seen. Needs your feed's URL (--feed-url or the configuration). With a relay \
                (--relay, $ORGSOCIAL_RELAY or "relayURL" in the configuration) the relay's notifications are \
                listed instead (in the relay's order, each post's author and text read from its feed; votes \
                are always computed locally), falling back to the local computation if the relay fails. Feeds \
                in the "block" setting are never read and their notifications never shown. On a terminal the \
                notifications go through $PAGER (default: less -FRX) unless --no-pager. With --follow the command \
                keeps listening to the relay's event stream and prints each new notification as it arrives, \
                reconnecting whenever the relay is lost, until Ctrl-C; --exec and --notify act on each one.

                With a mirror (--mirror, $ORGSOCIAL_MIRROR, "mirror" in the configuration, or the default mirror \
                when no relay is given) the mirror's notifications are listed the same way, each with its post \
                in the same answer (no feed is read; a mirror lists no votes: 'orgsocial poll-results' counts \
                them); when the mirror fails, they are computed from the feeds, with a note on standard error.
                """,
            options: ReadingOptions.definitions + [
                MirrorOptions.option,
                .value(
                    "type", valueName: "type", help: "Only this kind of notification.",
                    allowedValues: LocalIndex.Notification.Kind.allCases.map(\.rawValue)),
                .flag("json", help: "Print the notifications as JSON (with --follow, one object per line)."),
                .flag(
                    "follow",
                    help: "Keep listening to the relay's event stream and print each new notification as it arrives."),
                .value(
                    "exec", valueName: "command",
                    help: "With --follow, run this command for each notification (no shell; fields in $ORGSOCIAL_*)."),
                .flag("notify", help: "With --follow, show each notification on the desktop with notify-send."),
                Pager.option,
            ])
    }

    var reading: ReadingOptions
    var type: String?
    var printsJSON: Bool
    /// `--no-pager`.
    var pager: Pager
    /// `--follow`.
    var follows: Bool
    /// `--exec <command>`.
    var command: String?
    /// `--notify`.
    var notifies: Bool

    init(parsing arguments: ParsedArguments) throws {
        reading = ReadingOptions(parsing: arguments)
        type = arguments.value("type")
        printsJSON = arguments.flag("json")
        pager = Pager(parsing: arguments)
        follows = arguments.flag("follow")
        command = arguments.value("exec")
        notifies = arguments.flag("notify")
    }

    func validate() throws {
        try reading.validate(allowsRelay: true)
        if !follows, command != nil || notifies {
            throw CLIError.validation("--\(command != nil ? "exec" : "notify") only works with --follow.")
        }
        if follows, reading.usesNoRelay {
            throw CLIError.validation(
                "--follow reads a relay's event stream, so it cannot go with --no-relay: leave out --no-relay "
                    + "(the configured or default relay is used) or give --relay URL.")
        }
        if follows, type == "vote" {
            throw CLIError.validation(
                "--follow reads the relay's notifications, which have no votes; leave out --type vote.")
        }
        if let command, NotificationFollower.words(of: command).isEmpty {
            throw CLIError.invalidValue(value: command, option: "--exec <command>", reason: "Give a command to run.")
        }
    }

    func run(in context: CommandContext) async throws {
        // Checked before anything is read: without the URL others address you by, nothing can be found.
        guard let ownFeedURL = try reading.ownFeedURL(in: context) else {
            throw CLIError.feedURLNeeded(purpose: "Notifications are the posts that name your feed's URL")
        }
        let now = try context.now()
        let options = try ReadingOptions.directOptions(now: now, in: context)
        if follows {
            try await follow(ownFeedURL, options: options, in: context)
            return
        }
        let mirror = try reading.mirror(in: context)
        if type != "vote", let mirror {
            let kind = type.map(RelayNotificationType.init(rawValue:))
            if let page = try await MirrorOptions.read(
                mirror, instead: "computing notifications from the feeds you follow instead.", in: context,
                { try await $0.notifications(for: ownFeedURL, type: kind) })
            {
                let items = page.items.filter { !options.blocks(postURL: $0.post.url) }
                let lookups = items.map { $0.post.lookedUpEntry.map(PostLookup.Outcome.found) }
                try Self.write(
                    zip(items, lookups).map { Self.item(for: $0.0, lookup: $0.1) }, lookups: lookups, in: context,
                    asJSON: printsJSON, pager: pager, now: now)
                return
            }
        }
        if mirror == nil, type != "vote", let relayURL = try reading.relayURL(in: context),
            let base = URL(string: relayURL)
        {
            do {
                let relay = RelayClient(baseURL: base, transport: context.makeTransport())
                var result = try await relay.notifications(
                    for: ownFeedURL, type: type.map(RelayNotificationType.init(rawValue:)))
                result.items.removeAll { options.blocks(postURL: $0.post) }
                // The relay does not know votes: they are always computed from the feeds.
                let votes =
                    type == nil
                    ? try await localNotifications(for: ownFeedURL, options: options, in: context).votes : []
                try await Self.write(result, votes: votes, in: context, asJSON: printsJSON, pager: pager, now: now)
                return
            } catch let error as OrgSocialClientError {
                context.report(
                    "note: the relay \(relayURL) could not be used (\(error.localizedDescription)); computing "
                        + "notifications from the feeds you follow instead.")
            }
        }
        let kind = type.flatMap(LocalIndex.Notification.Kind.init(rawValue:))
        let notifications = try await localNotifications(for: ownFeedURL, options: options, in: context).all
            .filter { kind == nil || $0.kind == kind }
        if printsJSON {
            struct Computed: Encodable {
                var type: String
                var post: PostJSON
                var target: String?
            }
            context.write(
                try JSONOutput.text(
                    notifications.map { Computed(type: $0.kind.rawValue, post: PostJSON($0.entry), target: $0.target) }
                ))
            return
        }
        if notifications.isEmpty {
            context.report("No notifications.")
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: now)
        pager.show(notifications.map { Self.render($0, with: renderer, now: now) }.joined(), in: context)
    }

    /// The notifications computed from the reader's feed and the feeds it follows (blocked ones left out).
    /// - Parameters:
    ///   - ownFeedURL: the reader's feed URL, which the notifications name.
    ///   - options: the timeline options (block list, "now").
    ///   - context: the command's context.
    /// - Returns: Every notification, newest first, and the votes among them.
    /// - Throws: ``CLIError`` when the reader's feed cannot be read.
    private func localNotifications(
        for ownFeedURL: String, options: TimelineOptions, in context: CommandContext
    ) async throws -> (all: [LocalIndex.Notification], votes: [LocalIndex.Notification]) {
        let (timeline, _) = try await reading.fetchTimeline(options: options, in: context)
        let all = LocalIndex(feeds: timeline.feeds).notifications(for: ownFeedURL, now: options.now)
        return (all, all.filter { $0.kind == .vote })
    }

    /// One notification of the relay's JSON output: `{type, post, target?, emoji?, nick?, text?, error?}`
    /// (the votes computed beside them take the same shape).
    struct Item: Encodable {
        var type: String
        var post: String
        var target: String?
        var emoji: String?
        var nick: String?
        var text: String?
        var error: String?
    }

    /// A computed notification as an item of the relay's JSON output.
    static func item(for notification: LocalIndex.Notification) -> Item {
        Item(
            type: notification.kind.rawValue, post: notification.entry.url, target: notification.target,
            emoji: notification.kind == .reaction ? notification.entry.post.mood : nil,
            nick: notification.entry.author.displayName, text: notification.entry.post.body)
    }

    /// The text block of a computed notification: what happened, when, the post's text and its URL.
    static func render(_ notification: LocalIndex.Notification, with renderer: TimelineRenderer, now: Date) -> String {
        let who = notification.entry.author.displayName
        let what: String
        switch notification.kind {
        case .mention: what = "\(who) mentioned you"
        case .reply: what = "\(who) replied to \(notification.target ?? "")"
        case .reaction:
            what = "\(who) reacted \(notification.entry.post.mood ?? "") to \(notification.target ?? "")"
        case .boost: what = "\(who) boosted \(notification.target ?? "")"
        case .vote:
            what = "\(who) voted \"\(notification.entry.post.pollOption ?? "")\" on \(notification.target ?? "")"
        }
        var text =
            TerminalText.line(
                "[\(notification.kind.rawValue)] \(what) · "
                    + TimelineRenderer.relativeTime(from: notification.entry.instant, to: now)) + "\n"
        if !notification.entry.post.hasEmptyBody {
            for line in TimelineRenderer.wrap(notification.entry.post.body, width: renderer.width - 2) {
                text += "  \(line)\n"
            }
        }
        return text + "  \(TerminalText.line(notification.entry.url))\n\n"
    }

    /// Prints the relay's notifications with their posts' authors and text, read from the feeds the post
    /// URLs name (concurrently, through the cache): a block per notification, or JSON
    /// `[{type, post, target?, emoji?, nick?, text?, error?}]`. A feed that cannot be read shows the post
    /// URL with a short reason. The computed `votes` follow the relay's notifications. The text goes
    /// through `pager`.
    static func write(
        _ result: RelayNotifications, votes: [LocalIndex.Notification] = [], in context: CommandContext,
        asJSON: Bool, pager: Pager, now: Date
    ) async throws {
        let found = await PostLookup(fetcher: ReadingOptions.makeFetcher(in: context))
            .posts(at: result.items.map(\.post))
        try write(
            result.items.map { item(for: $0, lookup: found[$0.post]) }, lookups: result.items.map { found[$0.post] },
            votes: votes, in: context, asJSON: asJSON, pager: pager, now: now)
    }

    /// Prints notifications already read (`lookups` says how reading each one's post went, in the same
    /// order), then the computed `votes`: a block each, or JSON `[{type, post, target?, emoji?, nick?, text?,
    /// error?}]`, through `pager`.
    static func write(
        _ items: [Item], lookups: [PostLookup.Outcome?], votes: [LocalIndex.Notification] = [],
        in context: CommandContext, asJSON: Bool, pager: Pager, now: Date
    ) throws {
        if asJSON {
            context.write(try JSONOutput.text(items + votes.map(item(for:))))
            return
        }
        if items.isEmpty, votes.isEmpty {
            context.report("No notifications.")
            return
        }
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: now)
        var text = ""
        for (item, lookup) in zip(items, lookups) {
            text += render(item, lookup: lookup, with: renderer, now: now)
        }
        pager.show(text + votes.map { render($0, with: renderer, now: now) }.joined(), in: context)
    }

    /// The relay's notification read from its post's feed (author, text), or why that feed could not be.
    static func item(for notification: RelayNotification, lookup: PostLookup.Outcome?) -> Item {
        var item = Item(
            type: notification.type.rawValue, post: notification.post,
            target: notification.parent ?? notification.boosted, emoji: notification.emoji)
        switch lookup {
        case .found(let entry):
            item.nick = entry.author.displayName
            item.text = entry.post.body
        case .failed(let reason):
            item.error = reason
        case nil:
            break
        }
        return item
    }

    /// A mirror's notification, its author and text from the post in the answer.
    static func item(for notification: MirrorNotification, lookup: PostLookup.Outcome?) -> Item {
        var item = Item(
            type: notification.type.rawValue, post: notification.post.url, target: notification.target,
            emoji: notification.post.mood)
        if case .found(let entry) = lookup {
            item.nick = entry.author.displayName
            item.text = entry.post.body
        } else {
            item.error = "the mirror's post has no readable ID"
        }
        return item
    }

    /// The text block of a relay's notification: type, emoji, author and age, target, text, post URL.
    /// - Parameters:
    ///   - item: the notification with what its feed said.
    ///   - lookup: how reading its post went (for the post's time).
    ///   - renderer: the width and colors.
    ///   - now: the time ages are counted to.
    ///   - firstLineOnly: whether only the text's first line is shown (for `--follow`).
    /// - Returns: the block, ending with a blank line.
    static func render(
        _ item: Item, lookup: PostLookup.Outcome?, with renderer: TimelineRenderer, now: Date,
        firstLineOnly: Bool = false
    ) -> String {
        let emoji = item.emoji.map { " \($0)" } ?? ""
        let target = item.target.map { " → \($0)" } ?? ""
        var head = "[\(item.type)]\(emoji) \(item.nick ?? item.post)"
        if case .found(let entry) = lookup {
            head += " · " + TimelineRenderer.relativeTime(from: entry.instant, to: now)
        }
        var text = TerminalText.line(head + target) + "\n"
        if let body = item.text, !body.allSatisfy({ $0.isWhitespace }) {
            var lines = TimelineRenderer.wrap(body, width: renderer.width - 2)
            if firstLineOnly {
                let first = body.split(whereSeparator: \.isNewline).first { !$0.allSatisfy(\.isWhitespace) }
                lines = TimelineRenderer.wrap(String(first ?? ""), width: renderer.width - 2).prefix(1).map { $0 }
            }
            for line in lines { text += "  \(line)\n" }
        }
        if let error = item.error {
            let feedURL = PostReference(parsing: item.post)?.feedURL ?? item.post
            text += "  (could not read \(TerminalText.line("\(feedURL): \(error)")))\n"
        }
        return text + "  \(TerminalText.line(item.post))\n\n"
    }
}
