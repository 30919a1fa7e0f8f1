public import Foundation

/// The paging cursors of a `Link` header: `next` is older statuses, `prev` newer ones (Mastodon's own
/// names, not TootSDK's inverted ones).
///
/// Each link's own query is read, so Pleroma's links (both `max_id` and `min_id` in both) and the legacy
/// `since_id` in `prev` come out right (mastodon-api.md §1.4, §6.2).
public struct PageLinks: Sendable, Hashable {
    /// One link's cursors.
    public struct Cursor: Sendable, Hashable {
        /// The link's URL.
        public var url: URL
        /// `max_id`, if the link has one.
        public var maxID: String?
        /// `min_id`, if the link has one.
        public var minID: String?
        /// `since_id`, if the link has one.
        public var sinceID: String?
    }

    /// The older page (`rel="next"`).
    public var next: Cursor?
    /// The newer page (`rel="prev"`).
    public var previous: Cursor?

    /// Parses a `Link` header value; links with other relations, no `<…>` or a bad URL are skipped.
    /// - Parameter header: the header's value, or `nil`.
    public init(header: String?) {
        guard let header else { return }
        for link in Self.splitLinks(header) {
            guard let open = link.firstIndex(of: "<"), let close = link[open...].firstIndex(of: ">"),
                let url = URL(string: link[link.index(after: open)..<close].trimmingCharacters(in: .whitespaces))
            else { continue }
            let parameters = link[link.index(after: close)...].split(separator: ";")
            var relations: [String] = []
            for parameter in parameters {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespacesAndNewlines).lowercased() == "rel"
                else { continue }
                let value = pair[1].trimmingCharacters(in: .whitespacesAndNewlines)
                    .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                relations += value.split(separator: " ").map { $0.lowercased() }
            }
            let cursor = Self.cursor(url)
            if relations.contains("next"), next == nil { next = cursor }
            if relations.contains("prev") || relations.contains("previous"), previous == nil { previous = cursor }
        }
    }

    /// The links of a header: split on commas outside `<…>`.
    private static func splitLinks(_ header: String) -> [Substring] {
        var parts: [Substring] = []
        var start = header.startIndex
        var inside = false
        for index in header.indices {
            switch header[index] {
            case "<": inside = true
            case ">": inside = false
            case "," where !inside:
                parts.append(header[start..<index])
                start = header.index(after: index)
            default: break
            }
        }
        parts.append(header[start...])
        return parts
    }

    /// The cursors in `url`'s query.
    private static func cursor(_ url: URL) -> Cursor {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        return Cursor(url: url, maxID: value("max_id"), minID: value("min_id"), sinceID: value("since_id"))
    }
}
