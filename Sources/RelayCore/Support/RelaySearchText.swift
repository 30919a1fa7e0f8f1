import Foundation

/// Case folding for search (deliberate difference 6: case-insensitive for all of Unicode).
package enum RelaySearchText {
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
