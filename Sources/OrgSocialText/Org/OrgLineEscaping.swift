/// Keeps text from others out of Org's line syntax: a body line that Org (or an Org Social reader) would
/// read as structure gets a zero-width space (U+200B) in front of it (`mastodon-api.md` §4.3,
/// `org-social-spec.md` §6).
///
/// A line is escaped when, after any indentation (any white space), it starts
/// - a headline: `*` at column 0 followed by white space or the end (`* x`, `** x`, `***`), which would
///   split the feed or steal the post;
/// - a keyword or block: `#+` (`#+TITLE:`, `#+BEGIN_SRC`, `#+end_quote`);
/// - a comment: `#` alone or followed by white space (hidden by Org);
/// - a drawer or property line (`:PROPERTIES:`, `:END:`, `:ID: x`) or a fixed-width line (`: x`): any
///   line starting with `:` is escaped, since readers differ on what else they take for a drawer (and
///   org-social.el hides such lines);
/// - a table: `|`;
/// - a horizontal rule: five or more `-` and nothing else;
/// - a footnote definition: `[fn:` at column 0;
/// - a diary expression: `%%(` at column 0;
/// - a LaTeX environment: `\begin{`.
///
/// Plain lists (`- x`, `1. x`) and `#hashtag` are left alone: Org reads them as what they look like.
package enum OrgLineEscaping {
    /// The character put in front of an escaped line.
    package static let marker: Character = "\u{200B}"

    /// Whether Org would read `line` as structure rather than text.
    /// - Parameter line: one line, without its line break.
    /// - Returns: `true` when the line needs ``escaped(_:)``.
    package static func isMisread(_ line: Substring) -> Bool {
        guard let first = line.first else { return false }
        if first == "*" {
            let afterStars = line.drop { $0 == "*" }
            return afterStars.first.map { $0 == " " || $0 == "\t" } ?? true
        }
        if line.hasPrefix("[fn:") || line.hasPrefix("%%(") { return true }
        let text = line.drop(while: \.isWhitespace)
        guard let lead = text.first else { return false }
        let second = text.dropFirst().first
        let secondIsBlank = second.map { $0 == " " || $0 == "\t" } ?? true
        switch lead {
        case "#":
            return second == "+" || secondIsBlank
        case ":", "|":
            return true
        case "-":
            let dashes = text.prefix { $0 == "-" }.count
            return dashes >= 5 && text.dropFirst(dashes).allSatisfy { $0 == " " || $0 == "\t" }
        case "\\":
            return text.hasPrefix("\\begin{")
        default:
            return false
        }
    }

    /// The line, with ``marker`` in front when Org would misread it.
    /// - Parameter line: one line, without its line break.
    /// - Returns: The line to write.
    package static func escaped(_ line: Substring) -> String {
        isMisread(line) ? String(marker) + line : String(line)
    }

    /// Every line of `text` escaped.
    /// - Parameter text: lines separated by `\n`.
    /// - Returns: The text with each misread line escaped.
    package static func escapingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(escaped).joined(separator: "\n")
    }

    /// A line for the inside of an example or source block: `*` and `#+` lines (after any indentation, of
    /// any white space) and
    /// lines already starting with `,` before them get a `,`, which Org removes when it reads the block.
    /// - Parameter line: one line of the block's content.
    /// - Returns: The line to write.
    package static func escapedInBlock(_ line: Substring) -> String {
        let text = line.drop(while: \.isWhitespace)
        let unquoted = text.drop { $0 == "," }
        if unquoted.first == "*" || unquoted.hasPrefix("#+") {
            let indent = line.prefix(line.count - text.count)
            return indent + "," + text
        }
        return String(line)
    }
}
