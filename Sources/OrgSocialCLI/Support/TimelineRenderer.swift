import Foundation
import OrgSocial
import OrgSocialClient
import OrgSocialText

/// Turns timeline entries into readable text: nick, relative time, the wrapped body, markers for
/// replies, boosts and polls, and the post URL. Colors only when asked (a terminal without `NO_COLOR`).
///
/// Everything in an entry came from a remote feed: the result is ``StyledText``, whose rendering makes
/// every control character visible; the one-line parts (the head line, the URL) are kept on one line here
/// (``TerminalText/line(_:)``).
struct TimelineRenderer {
    /// Whether ANSI colors are used.
    var usesColor: Bool
    /// "Now", for relative times.
    var now: Date
    /// The width bodies are wrapped to.
    var width = 78

    /// Whether a context wants colors: standard output is a terminal and `NO_COLOR` is unset or empty.
    static func usesColor(in context: CommandContext) -> Bool {
        context.isStandardOutputTerminal && (context.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// One entry as a block of lines ending with a blank line.
    func render(_ entry: TimelinePost, indent: Int = 0) -> StyledText {
        let pad = String(repeating: " ", count: indent)
        var text = pad + paint(entry.author.displayName, "1;36") + " · "
        text += Self.relativeTime(from: entry.instant, to: now)
        for marker in markers(entry.post) { text += "  " + paint(marker, "33") }
        text += "\n"
        for line in Self.wrap(entry.post.body, width: max(20, width - indent - 2)) { text += pad + "  " + line + "\n" }
        return text + pad + "  " + paint(entry.url, "2") + "\n\n"
    }

    /// A post a relay listed, as found in its feed: the entry when it was read, else its URL and why it
    /// could not be read (the shape `search`, `groups` and relay notifications share).
    /// - Parameters:
    ///   - url: the post's URL.
    ///   - outcome: what the lookup found, or `nil` when it was not looked up.
    ///   - indent: the spaces before every line.
    /// - Returns: A block of lines ending with a blank line.
    func render(_ url: String, found outcome: PostLookup.Outcome?, indent: Int = 0) -> StyledText {
        let pad = String(repeating: " ", count: indent)
        switch outcome {
        case .found(let entry): return render(entry, indent: indent)
        case .failed(let reason):
            let feedURL = PostReference(parsing: url)?.feedURL ?? url
            return StyledText(
                "\(pad)\(TerminalText.line(url))\n\(pad)  (could not read \(TerminalText.line("\(feedURL): \(reason)")))\n\n"
            )
        case nil: return StyledText("\(pad)\(TerminalText.line(url))\n\n")
        }
    }

    /// The markers of a post: reply, boost, poll, vote, reaction, migration (whose body is usually empty,
    /// so the marker is what it says: where the feed moved).
    func markers(_ post: Post) -> [String] {
        switch post.kind {
        case .reply: return ["↩ reply to \(post.replyTo?.description ?? "")"]
        case .boost, .quoteBoost: return ["♻ boost of \(post.include?.description ?? "")"]
        case .poll: return ["▣ poll (\(post.pollOptions.count) options)"]
        case .vote: return ["☑ vote: \(post.pollOption ?? "")"]
        case .reaction: return ["\(post.mood ?? "") reaction"]
        case .migration:
            return [post.migration.map { "→ moved to \($0.newURL)" } ?? "→ moved (its :MIGRATION: is not two URLs)"]
        default: return []
        }
    }

    /// A one-line part of an entry, in a color when colors are used.
    private func paint(_ text: String, _ code: String) -> StyledText {
        StyledText(TerminalText.line(text), style: usesColor ? code : nil)
    }

    /// "just now", "5m ago", "3h ago", "2d ago", "in 2h", else the date.
    static func relativeTime(from date: Date, to now: Date) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        let magnitude = abs(seconds)
        let text: String
        switch magnitude {
        case ..<60: return "just now"
        case ..<3600: text = "\(magnitude / 60)m"
        case ..<86_400: text = "\(magnitude / 3600)h"
        case ..<(30 * 86_400): text = "\(magnitude / 86_400)d"
        default:
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "yyyy-MM-dd"
            return formatter.string(from: date)
        }
        return seconds >= 0 ? "\(text) ago" : "in \(text)"
    }

    /// Wraps text at spaces to `width` columns, keeping its line breaks; empty lines are dropped at the ends.
    static func wrap(_ text: String, width: Int) -> [String] {
        var result: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: true) {
                if !line.isEmpty, line.count + 1 + word.count > width {
                    result.append(line)
                    line = ""
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            result.append(line)
        }
        while result.first?.isEmpty == true { result.removeFirst() }
        while result.last?.isEmpty == true { result.removeLast() }
        return result
    }
}

/// The JSON shape of a post in reading commands' `--json` output.
struct PostJSON: Encodable {
    var url: String
    var feedURL: String
    var nick: String?
    var title: String?
    var avatar: String?
    var id: String
    var instant: String
    var kind: String
    var body: String
    var language: String?
    var replyTo: String?
    var include: String?
    var mood: String?
    var pollOption: String?
    /// A migration post's old and new feed URLs.
    var migration: Migration?

    init(_ entry: TimelinePost) {
        url = entry.url
        feedURL = entry.author.feedURL
        nick = entry.author.nick
        title = entry.author.title
        avatar = entry.author.avatar
        id = entry.post.id ?? ""
        let formatter = ISO8601DateFormatter()
        instant = formatter.string(from: entry.instant)
        kind = entry.post.kind.rawValue
        body = entry.post.body
        language = entry.post.language
        replyTo = entry.post.replyTo?.description
        include = entry.post.include?.description
        mood = entry.post.mood
        pollOption = entry.post.pollOption
        migration = entry.post.migration
    }
}

/// The JSON shape of a feed status.
struct FeedStatusJSON: Encodable {
    var url: String
    var status: String
    var error: String?
    var permanentRedirect: String?
    var bytes: Int

    init(_ status: FeedStatus) {
        url = status.url
        permanentRedirect = status.permanentRedirect
        bytes = status.downloadedBytes
        switch status.outcome {
        case .ok: self.status = "ok"
        case .notModified: self.status = "not-modified"
        case .error(let reason):
            self.status = "error"
            error = reason
        }
    }
}
