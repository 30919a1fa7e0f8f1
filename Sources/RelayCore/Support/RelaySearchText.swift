import Foundation

/// Case folding for search (deliberate difference 6: case-insensitive for all of Unicode).
package enum RelaySearchText {
    /// The longest search text, in Unicode scalars after case folding (a deliberate difference: the reference
    /// has no limit): the relay answers a longer `q` with a 400, and `orgsocial search` refuses it before
    /// asking.
    package static let maximumQueryLength = 128

    /// Whether `q` is longer than ``maximumQueryLength`` once folded.
    package static func isTooLong(_ q: String) -> Bool { fold(q).unicodeScalars.count > maximumQueryLength }

    /// Folds `text` so that case variants compare equal (`ÉMACS` and `émacs`).
    package static func fold(_ text: String) -> String {
        // ASCII text folds to its lower case; skip Foundation's (much slower) general folding for it.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive], locale: nil)
    }

    /// `text` without leading and trailing white space (Python's `str.strip()`).
    package static func strip(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
