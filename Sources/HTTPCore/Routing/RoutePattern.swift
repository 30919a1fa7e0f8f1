/// A parsed route pattern such as `/feeds/:id/posts/*`.
///
/// Segments are compared exactly, one `/`-separated segment at a time, so `/feeds` and `/feeds/` are
/// different routes and `//feeds/` matches neither. `:name` matches one non-empty segment; a final `*`
/// matches the rest of the path after its `/`, possibly empty (`/static/*` matches `/static/` and
/// `/static/a/b`, not `/static`).
struct RoutePattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case wildcard
    }

    let segments: [Segment]
    let description: String

    /// Parses `pattern`; a malformed pattern is a programming error in the route table.
    init(_ pattern: String) {
        precondition(pattern.hasPrefix("/"), "Route pattern '\(pattern)' must start with '/'.")
        let parts = pattern.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var names: Set<String> = []
        segments = parts.enumerated().map { offset, part in
            if part == "*" {
                precondition(offset == parts.count - 1, "Route pattern '\(pattern)': '*' must be the last segment.")
                return .wildcard
            }
            if part.hasPrefix(":") {
                let name = String(part.dropFirst())
                precondition(!name.isEmpty, "Route pattern '\(pattern)': a ':' segment needs a name.")
                precondition(names.insert(name).inserted, "Route pattern '\(pattern)' repeats ':\(name)'.")
                return .parameter(name)
            }
            return .literal(String(part))
        }
        description = pattern
    }

    /// The captured parameters if `pathSegments` (decoded, as in ``HTTPRequest/pathSegments``) match.
    func match(_ pathSegments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .wildcard:
                guard index < pathSegments.count else { return nil }
                parameters["*"] = pathSegments[index...].joined(separator: "/")
                return parameters
            case .literal(let literal):
                guard index < pathSegments.count, pathSegments[index] == literal else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count, !pathSegments[index].isEmpty else { return nil }
                parameters[name] = pathSegments[index]
            }
        }
        return pathSegments.count == segments.count ? parameters : nil
    }
}
