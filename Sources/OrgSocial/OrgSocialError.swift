public import Foundation

/// Errors from composing and editing feeds. Parsing never throws.
public enum OrgSocialError: Error, Sendable, Equatable, LocalizedError {
    /// No post has this ID.
    case postNotFound(id: String)
    /// Several posts have this ID (their headlines are on `lines`), so an edit cannot tell which one is meant.
    case duplicatePostID(id: String, lines: [Int])
    /// The post's `:PROPERTIES:` drawer has no `:END:` line (its headline is on `line`): an edit could not
    /// tell its properties from its text.
    case unclosedDrawer(id: String, line: Int)
    /// A value given to a composer or editor is not acceptable.
    case invalidInput(field: String, value: String, reason: String)
    /// The feed already follows this URL (the spelling of its `#+FOLLOW` line, which may differ from the one given).
    case alreadyFollowing(url: String)
    /// The feed follows nothing matching this URL or label.
    case notFollowing(String)
    /// The feed has already joined this group.
    case alreadyInGroup(name: String)
    /// The feed has not joined a group of this name.
    case notInGroup(name: String)

    /// What went wrong, in one or two sentences; an app adds how its user fixes it.
    public var errorDescription: String? {
        switch self {
        case .postNotFound(let id):
            "No post with the ID '\(id)' in this feed. IDs are compared exactly as written."
        case .duplicatePostID(let id, let lines):
            "\(lines.count) posts have the ID '\(id)' (lines "
                + lines.map(String.init).joined(separator: ", ")
                + "); nothing was changed, since it is not clear which one is meant."
        case .unclosedDrawer(let id, let line):
            "The post '\(id)' (line \(line)) has a :PROPERTIES: drawer without an :END: line, so its properties "
                + "cannot be told from its text; nothing was changed."
        case .invalidInput(let field, let value, let reason):
            value.isEmpty ? "Invalid \(field): \(reason)" : "Invalid \(field) '\(value)': \(reason)"
        case .alreadyFollowing(let url):
            "This feed already follows \(url)."
        case .notFollowing(let target):
            "This feed follows nothing matching '\(target)'. Give the exact URL or label of a #+FOLLOW line."
        case .alreadyInGroup(let name):
            "This feed has already joined the group '\(name)'."
        case .notInGroup(let name):
            "This feed has not joined a group named '\(name)'."
        }
    }
}
