import HTTPCore

/// The value of an `If-Match` or `If-None-Match` header: `*` or a list of entity tags (RFC 9110,
/// sections 13.1.1 and 13.1.2).
///
/// Parsing is lenient: a tag sent without its quotes (a common client bug) is read as if quoted, and
/// anything unreadable ends the list.
enum EntityTagCondition: Sendable, Equatable {
    /// `*`: any current representation.
    case any
    /// The listed tags, each with its opaque part (including the quotes) and whether it was weak (`W/`).
    case tags([(opaque: String, isWeak: Bool)])

    /// Parses every field of a header, joined as one list; `nil` if the header is absent or holds no tag.
    init?(fieldValues: [String]) {
        guard !fieldValues.isEmpty else { return nil }
        let text = fieldValues.joined(separator: ",")
        if text.trimmingSpaces() == "*" {
            self = .any
            return
        }
        var tags: [(opaque: String, isWeak: Bool)] = []
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            var isWeak = false
            if rest.hasPrefix("W/") {
                isWeak = true
                rest = rest.dropFirst(2)
            }
            if rest.first == "\"" {
                guard let close = rest.dropFirst().firstIndex(of: "\"") else { break }
                tags.append((String(rest[...close]), isWeak))
                rest = rest[rest.index(after: close)...]
            } else {
                let token = rest.prefix { $0 != "," && $0 != " " && $0 != "\t" }
                tags.append(("\"\(token)\"", isWeak))
                rest = rest.dropFirst(token.count)
            }
        }
        guard !tags.isEmpty else { return nil }
        self = .tags(tags)
    }

    /// The first of `candidates` (strong tags, quoted) that the condition matches, comparing weakly
    /// (`W/"x"` matches `"x"`), as `If-None-Match` does; for `*`, the first candidate.
    func weakMatch(in candidates: [String]) -> String? {
        switch self {
        case .any:
            return candidates.first
        case .tags(let tags):
            return candidates.first { candidate in tags.contains { $0.opaque == candidate } }
        }
    }

    /// Whether the condition matches one of `candidates` comparing strongly (a weak tag never
    /// matches), as `If-Match` does; `*` matches when there is a candidate at all.
    func strongMatch(in candidates: [String]) -> Bool {
        switch self {
        case .any:
            return !candidates.isEmpty
        case .tags(let tags):
            return candidates.contains { candidate in tags.contains { !$0.isWeak && $0.opaque == candidate } }
        }
    }

    static func == (lhs: EntityTagCondition, rhs: EntityTagCondition) -> Bool {
        switch (lhs, rhs) {
        case (.any, .any):
            return true
        case (.tags(let left), .tags(let right)):
            return left.count == right.count
                && zip(left, right).allSatisfy { $0.opaque == $1.opaque && $0.isWeak == $1.isWeak }
        default:
            return false
        }
    }
}
