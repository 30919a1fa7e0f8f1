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
        var content = content
        return content.withUTF8 { bytes in
            var scanner = RelayLinkScanner(bytes)
            return scanner.links()
        }
    }
}
