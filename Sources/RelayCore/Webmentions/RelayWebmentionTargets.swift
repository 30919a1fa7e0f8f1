import Foundation

/// The pages a post notifies by Webmention (`relay-api.md` §4.7), worked out once for both relay engines:
/// every http(s) URL of the content, `[[url]]`, `[[url][description]]` and bare, trailing punctuation
/// stripped, in order of appearance, each once, except the author's own feed (with or without a `#…`).
/// Each store then leaves out the registered feeds (a lookup in its crawl list) and queues the rest, one
/// row per (source, target), so a target is notified once and an edit only adds the links it adds.
///
/// ```swift
/// for candidate in RelayWebmentionTargets.candidates(in: post.content, feed: feedURL) {
///     // skip when the crawl list holds candidate.page, else queue candidate.target
/// }
/// ```
package enum RelayWebmentionTargets {
    /// A link of a post that may be notified.
    package struct Candidate: Sendable, Hashable {
        /// The linked URL, as queued.
        package var target: String
        /// The part of ``target`` before any `#`: the page a registered feed would be listed under.
        package var page: String
    }

    /// The links of a post by `feed` that may be notified: ``links(in:)`` without the author's own feed.
    ///
    /// - Parameters:
    ///   - content: The post's content.
    ///   - feed: The author's feed URL.
    /// - Returns: The candidates, in order of appearance.
    package static func candidates(in content: String, feed: String) -> [Candidate] {
        links(in: content).compactMap { target in
            let page = String(target.prefix { $0 != "#" })
            return page == feed ? nil : Candidate(target: target, page: page)
        }
    }

    /// The distinct http(s) URLs of a post's content, in order of appearance.
    ///
    /// - Parameter content: The post's content.
    /// - Returns: The URLs, trailing punctuation stripped.
    package static func links(in content: String) -> [String] {
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
