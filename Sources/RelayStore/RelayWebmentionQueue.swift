import Foundation
import SQLiteStore

/// Fills the outgoing Webmention queue while a post is indexed (`relay-api.md` §4.7): every http(s) URL
/// of the content, `[[url]]`, `[[url][description]]` and bare, trailing punctuation stripped, except
/// URLs whose part before `#` is a registered feed or the author's own feed; one row per (source,
/// target), so a target is notified once, and an edit only adds the links it adds.
enum RelayWebmentionQueue {
    /// Queues the links of the post `source` (`feed#id`) written by `feed`.
    static func enqueue(_ db: Connection, source: String, feed: String, content: String, now: Date) throws {
        for target in links(in: content) {
            let page = String(target.prefix { $0 != "#" })
            guard page != feed,
                try db.queryOne(sql: "SELECT 1 FROM feeds WHERE url = ?", arguments: [page]) == nil
            else { continue }
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO outgoing_webmentions
                        (source, target, status, attempts, next_attempt, created_at, updated_at)
                    VALUES (?, ?, 'pending', 0, ?, ?, ?)
                    """,
                arguments: [
                    source, target, now.timeIntervalSince1970, now.timeIntervalSince1970, now.timeIntervalSince1970,
                ])
        }
    }

    /// The distinct http(s) URLs of a post's content, in order of appearance.
    static func links(in content: String) -> [String] {
        var found: [String] = []
        var seen = Set<String>()
        func add(_ candidate: Substring) {
            var url = candidate
            while let last = url.last, ".,;:!?)]}'\">".contains(last) { url = url.dropLast() }
            let text = String(url)
            guard text.hasPrefix("http://") || text.hasPrefix("https://"), text.count > 8,
                seen.insert(text).inserted
            else { return }
            found.append(text)
        }
        var rest = Substring(content)
        while let open = rest.range(of: "[[") {
            let before = rest[..<open.lowerBound]
            for word in before.split(whereSeparator: \.isWhitespace) { bare(word, add) }
            let inside = rest[open.upperBound...]
            guard let close = inside.range(of: "]") else {
                rest = inside
                continue
            }
            add(inside[..<close.lowerBound])
            let afterTarget = inside[close.upperBound...]
            if afterTarget.hasPrefix("["), let end = afterTarget.range(of: "]]") {
                rest = afterTarget[end.upperBound...]
            } else {
                rest = afterTarget.hasPrefix("]") ? afterTarget.dropFirst() : afterTarget
            }
        }
        for word in rest.split(whereSeparator: \.isWhitespace) { bare(word, add) }
        return found
    }

    /// Adds the URL a bare word holds (from its `http` on), if any.
    private static func bare(_ word: Substring, _ add: (Substring) -> Void) {
        guard let start = word.range(of: "http://") ?? word.range(of: "https://") else { return }
        add(word[start.lowerBound...])
    }
}
