public import Foundation

/// An edit of a feed refused because it would add format errors (spec §9) the feed did not have.
public struct FeedChangeAddsErrors: Error, Sendable, Hashable, LocalizedError {
    /// The errors the edit would add, as the validator reports them for the edited feed.
    public let errors: [Diagnostic]

    /// Makes the refusal.
    /// - Parameter errors: the errors the edit would add.
    public init(errors: [Diagnostic]) {
        self.errors = errors
    }

    /// The errors, one per line.
    public var errorDescription: String? {
        "The change would add these errors:\n" + errors.map { "  \($0)" }.joined(separator: "\n")
    }
}

extension Feed {
    /// Applies `change`, keeping its result only when it adds no format error: an edit may keep the errors
    /// a feed already has, but never adds one, so a feed that other clients read stays as readable as it
    /// was.
    ///
    /// ```swift
    /// var feed = Feed(parsing: text)
    /// let (_, warnings) = try feed.applyChecked { try $0.setKeyword("NICK", to: "ana") }
    /// ```
    ///
    /// - Parameter change: the edit.
    /// - Returns: what `change` returned, and the warnings the edit added (new warnings do not refuse it).
    /// - Throws: ``FeedChangeAddsErrors`` when the edited feed has errors this one does not (the feed is
    ///   then left as it was), or what `change` throws.
    public mutating func applyChecked<Result>(_ change: (inout Feed) throws -> Result) throws -> (
        result: Result, addedWarnings: [Diagnostic]
    ) {
        var edited = self
        let result = try change(&edited)
        guard edited.bytes != bytes else { return (result, []) }
        // Only the posts the edit touched are read again, in both versions (with the header, `#+PINNED`
        // and the parser's findings): the others hold the same bytes and say the same things.
        let validator = FeedValidator()
        let (before, after) = changedPostPositions(in: edited)
        let added = Diagnostic.added(
            before: validator.validate(self, postsAt: before), after: validator.validate(edited, postsAt: after))
        let errors = added.filter { $0.severity == .error }
        guard errors.isEmpty else { throw FeedChangeAddsErrors(errors: errors) }
        self = edited
        return (result, added)
    }
}

extension Feed {
    /// The posts that differ between this feed and `edited`: those meeting the bytes between the two
    /// files' common beginning and common end, in each.
    /// - Parameter edited: this feed after an edit.
    /// - Returns: the positions of those posts in this feed and in `edited`.
    func changedPostPositions(in edited: Feed) -> (before: Range<Int>, after: Range<Int>) {
        let old = bytes
        let new = edited.bytes
        let shorter = Swift.min(old.count, new.count)
        var prefix = 0
        old.withUnsafeBufferPointer { a in
            new.withUnsafeBufferPointer { b in
                while prefix < shorter, a[prefix] == b[prefix] { prefix += 1 }
            }
        }
        var suffix = 0
        old.withUnsafeBufferPointer { a in
            new.withUnsafeBufferPointer { b in
                while suffix < shorter - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
            }
        }
        return (
            posts.positions(meeting: prefix..<(old.count - suffix)),
            edited.posts.positions(meeting: prefix..<(new.count - suffix))
        )
    }
}

extension Diagnostic {
    /// The diagnostics of `after` that `before` did not have, matched by severity, code and message (not
    /// by position, since lines move when text is inserted), each match used once.
    ///
    /// - Parameters:
    ///   - before: the diagnostics of a feed.
    ///   - after: the diagnostics of the feed after an edit.
    /// - Returns: the diagnostics only `after` has, in its order.
    public static func added(before: [Diagnostic], after: [Diagnostic]) -> [Diagnostic] {
        var remaining: [String: Int] = [:]
        for diagnostic in before { remaining[diagnostic.matchKey, default: 0] += 1 }
        return after.filter { diagnostic in
            let key = diagnostic.matchKey
            if let count = remaining[key], count > 0 {
                remaining[key] = count - 1
                return false
            }
            return true
        }
    }

    private var matchKey: String { "\(severity.rawValue)|\(code.rawValue)|\(message)" }
}
