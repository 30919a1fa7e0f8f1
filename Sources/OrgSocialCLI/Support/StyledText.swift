import OrgSocialText

/// Human-readable output with colors: runs of text, some with an ANSI style (SGR parameters such as
/// `1;36`). Only ``rendered`` turns it into what is written, and it passes every run through
/// ``TerminalText/block(_:)`` before adding the styles, so the only escape sequences that reach standard
/// output are the styles the renderer chose; remote text in a run cannot add one (docs/security.md,
/// "Terminal output").
struct StyledText: Sendable, Equatable {
    /// A piece of text and its style.
    struct Run: Sendable, Equatable {
        /// The text, as it came (made safe when rendered).
        var text: String
        /// The SGR parameters, or `nil` for plain text.
        var style: String?
    }

    /// The runs, in order.
    private(set) var runs: [Run] = []

    /// Empty text.
    init() {}

    /// Plain text.
    init(_ text: String) {
        if !text.isEmpty { runs = [Run(text: text, style: nil)] }
    }

    /// Text in a style.
    /// - Parameters:
    ///   - text: the text.
    ///   - style: its SGR parameters (`1;36`), or `nil` for plain text.
    init(_ text: String, style: String?) {
        if !text.isEmpty { runs = [Run(text: text, style: style)] }
    }

    /// The text without styles, as it came (for tests and widths).
    var plainText: String { runs.map(\.text).joined() }

    /// What is written: every run made safe for a terminal, styled runs between their SGR sequence and a
    /// reset.
    var rendered: String {
        runs.map { run in
            let text = TerminalText.block(run.text)
            guard let style = run.style else { return text }
            return "\u{1B}[\(style)m\(text)\u{1B}[0m"
        }.joined()
    }

    /// Appends text.
    static func += (text: inout StyledText, more: StyledText) { text.runs += more.runs }

    /// Appends plain text.
    static func += (text: inout StyledText, more: String) { text += StyledText(more) }

    /// Two texts one after the other.
    static func + (first: StyledText, second: StyledText) -> StyledText {
        var result = first
        result += second
        return result
    }

    /// Styled text followed by plain text.
    static func + (first: StyledText, second: String) -> StyledText { first + StyledText(second) }

    /// Plain text followed by styled text.
    static func + (first: String, second: StyledText) -> StyledText { StyledText(first) + second }
}

extension Sequence<StyledText> {
    /// The texts one after the other.
    func joined() -> StyledText {
        reduce(into: StyledText()) { $0 += $1 }
    }
}
