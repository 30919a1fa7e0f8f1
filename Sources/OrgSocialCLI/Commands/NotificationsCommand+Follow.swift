import Foundation
import OrgSocialClient
import Synchronization

extension NotificationsCommand {
    /// `--follow`: reads the relay's event stream (``NotificationStream``) until interrupted and, for each
    /// new notification, prints it (a block with the post's first line, or one JSON object per line), runs
    /// the `--exec` command and shows it with `notify-send`. A lost relay gets one line on standard error
    /// and a reconnection, never an exit; Ctrl-C ends the command (exit status 130).
    /// - Parameters:
    ///   - ownFeedURL: the reader's feed URL, whose notifications are read.
    ///   - options: the block list.
    ///   - context: the command's context.
    /// - Throws: ``CLIError`` without `notify-send`; the stream's error when the relay refuses it. Without a
    ///   configured relay it follows the default one, as `config` shows it.
    func follow(_ ownFeedURL: String, options: TimelineOptions, in context: CommandContext) async throws {
        // The relay `config` shows: the configured one, else the default (`--no-relay` is refused earlier).
        let relayURL =
            try reading.relayURL(in: context) ?? ConfigurationKey.defaultRelayURL(environment: context.environment)
        guard let base = URL(string: relayURL) else {
            throw CLIError.invalidValue(
                value: relayURL, option: RelayOptions.relayOption.synopsis,
                reason: "Give the relay's http:// or https:// URL.")
        }
        var notifier: String?
        if notifies {
            guard let found = ExecutableSearch.path(of: "notify-send", searching: context.environment["PATH"]) else {
                context.report(
                    "Error: --notify shows notifications with notify-send, which is not on PATH. Install it "
                        + "(Debian and Ubuntu: apt install libnotify-bin) or leave out --notify.")
                throw CLIError.exit(1)
            }
            notifier = found
        }
        let commandWords = command.map(NotificationFollower.words(of:))
        let relay = RelayClient(baseURL: base, transport: context.makeTransport())
        let lookup = PostLookup(fetcher: ReadingOptions.makeFetcher(in: context))
        let renderer = TimelineRenderer(usesColor: TimelineRenderer.usesColor(in: context), now: try context.now())
        let kind = type.map(RelayNotificationType.init(rawValue:))
        let connection = ConnectionNotes(output: ProgressWriter(context.writeStandardError), relayURL: relayURL)
        let stream = relay.notificationStream(for: ownFeedURL) { connection.note($0) }
        do {
            try await printNotifications(
                of: stream, kind: kind, options: options, lookup: lookup, renderer: renderer, in: context
            ) {
                item in
                if let commandWords {
                    await NotificationFollower.run(
                        commandWords, for: item, feedURL: ownFeedURL, environment: context.environment, in: context)
                }
                if let notifier { await NotificationFollower.notify(with: notifier, item, in: context) }
            }
        } catch is CancellationError {
            // Interrupted (Ctrl-C, or the caller's task): the end of following, not a failure to report.
            throw CLIError.exit(Interruption.exitStatus)
        }
    }

    /// Prints each notification of `stream` (of `kind`, not blocked) and hands it to `act`.
    private func printNotifications(
        of stream: NotificationStream, kind: RelayNotificationType?, options: TimelineOptions, lookup: PostLookup,
        renderer: TimelineRenderer, in context: CommandContext, act: (Item) async -> Void
    ) async throws {
        for try await notification in stream {
            if let kind, notification.type != kind { continue }
            if options.blocks(postURL: notification.post) { continue }
            let found = await lookup.posts(at: [notification.post])[notification.post]
            // Interrupted while reading the post: nothing more is printed or run.
            try Task.checkCancellation()
            let item = Self.item(for: notification, lookup: found)
            if printsJSON {
                context.write(try JSONOutput.line(item))
            } else {
                let now = try context.now()
                context.write(Self.render(item, lookup: found, with: renderer, now: now, firstLineOnly: true))
            }
            await act(item)
        }
    }
}

/// Tells the user, on standard error, when the relay is lost and when it is back.
private final class ConnectionNotes: Sendable {
    private let output: ProgressWriter
    private let relayURL: String
    private let isLost = Mutex(false)

    init(output: ProgressWriter, relayURL: String) {
        self.output = output
        self.relayURL = relayURL
    }

    func note(_ event: NotificationStream.ConnectionEvent) {
        switch event {
        case .connected:
            if isLost.withLock({ lost in
                defer { lost = false }
                return lost
            }) {
                output.write("note: connected to the relay \(relayURL) again.\n")
            }
        case .disconnected(let reason, let delay):
            isLost.withLock { $0 = true }
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            output.write(
                "note: lost the relay \(relayURL) (\(reason)); reconnecting in "
                    + "\(String(format: "%.1f", seconds)) s.\n")
        }
    }
}

/// What `notifications --follow` does per notification besides printing: `--exec` and `--notify`.
enum NotificationFollower {
    /// The words of an `--exec` command, split as a shell would split a simple command but with nothing
    /// expanded: spaces separate words, `'…'` and `"…"` quote, a backslash escapes the next character
    /// (outside single quotes).
    /// - Parameter command: the command line.
    /// - Returns: the program and its arguments.
    static func words(of command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var hasWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\", quote != "'" {
                escaped = true
                hasWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                hasWord = true
            } else if character == " " || character == "\t" || character == "\n" {
                if hasWord { words.append(word) }
                (word, hasWord) = ("", false)
            } else {
                word.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(word) }
        return words
    }

    /// The environment a `--exec` command gets: the command's own, plus the notification's fields.
    ///
    /// `ORGSOCIAL_TYPE`, `ORGSOCIAL_POST`, `ORGSOCIAL_FEED` (the reader's feed), and where known
    /// `ORGSOCIAL_TARGET`, `ORGSOCIAL_EMOJI`, `ORGSOCIAL_NICK`, `ORGSOCIAL_TEXT`, `ORGSOCIAL_ERROR`.
    static func environment(
        for item: NotificationsCommand.Item, feedURL: String, base: [String: String]
    ) -> [String: String] {
        var environment = base
        let fields: [(String, String?)] = [
            ("TYPE", item.type), ("POST", item.post), ("FEED", feedURL), ("TARGET", item.target),
            ("EMOJI", item.emoji), ("NICK", item.nick), ("TEXT", item.text), ("ERROR", item.error),
        ]
        for (name, value) in fields {
            environment["ORGSOCIAL_\(name)"] = value
        }
        return environment
    }

    /// Runs the `--exec` command for one notification and waits for it; the remote text reaches it only
    /// through the environment, never through a shell. A command that cannot start or fails gets one line
    /// on standard error.
    static func run(
        _ words: [String], for item: NotificationsCommand.Item, feedURL: String, environment: [String: String],
        in context: CommandContext
    ) async {
        guard let program = words.first,
            let executable = ExecutableSearch.path(of: program, searching: environment["PATH"])
        else {
            context.report("warning: --exec: '\(words.first ?? "")' was not found or is not executable.")
            return
        }
        let status = await launch(
            executable, arguments: Array(words.dropFirst()),
            environment: Self.environment(for: item, feedURL: feedURL, base: environment))
        switch status {
        case .success(0): break
        case .success(let code): context.report("warning: --exec: '\(program)' exited with status \(code).")
        case .failure(let error): context.report("warning: --exec: '\(program)' could not start (\(error)).")
        }
    }

    /// Shows one notification on the desktop with `notify-send <title> <body>`.
    static func notify(with notifier: String, _ item: NotificationsCommand.Item, in context: CommandContext) async {
        let title = "[\(item.type)]\(item.emoji.map { " \($0)" } ?? "") \(item.nick ?? item.post)"
        let firstLine = item.text?.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let body = firstLine.isEmpty ? item.post : firstLine + "\n" + item.post
        let status = await launch(notifier, arguments: ["--app-name=orgsocial", title, body], environment: nil)
        if case .failure(let error) = status {
            context.report("warning: --notify: notify-send could not start (\(error)).")
        }
    }

    /// Runs a program without a shell and waits for it to end.
    /// - Returns: its exit status, or why it could not start.
    private static func launch(
        _ executable: String, arguments: [String], environment: [String: String]?
    ) async -> Result<Int32, any Error> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { process in
                continuation.resume(returning: .success(process.terminationStatus))
            }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: .failure(error))
            }
        }
    }
}
