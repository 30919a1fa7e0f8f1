/// Text from elsewhere (a remote feed, a relay, a Mastodon server) made safe to print on a terminal: every
/// C0 and C1 control character and DEL is replaced by a visible symbol, so that no escape sequence (CSI,
/// OSC, including OSC 52's clipboard write, DCS, a bare ESC, a C1 introducer such as U+009B) can start, and
/// no carriage return or backspace can draw over a line already written.
///
/// The text stays readable: ESC shows as `␛`, the other C0 controls as their control pictures (`␀`…`␟`),
/// DEL as `␡`, and a C1 control as `�`, while the rest of a sequence prints as the plain characters it is
/// made of (`␛]52;c;…`). What a terminal needs for layout is kept where layout allows it: ``block(_:)``
/// keeps line breaks (a CR LF pair counts as one) and tabs, for bodies; ``line(_:)`` makes them spaces, for
/// a value that must stay on one line (a nick, a title, a URL).
package enum TerminalText {
    /// `text` with line breaks and tabs kept and every other control character made visible.
    /// - Parameter text: the text to print.
    /// - Returns: `text` itself when it holds no control character.
    package static func block(_ text: String) -> String {
        sanitized(text, keepsLayout: true)
    }

    /// `text` on one line: line breaks and tabs become spaces, every other control character is made
    /// visible.
    /// - Parameter text: the text to print.
    /// - Returns: `text` itself when it holds no control character.
    package static func line(_ text: String) -> String {
        sanitized(text, keepsLayout: false)
    }

    /// Whether `text` holds a control character that ``block(_:)`` would replace.
    package static func needsSanitizing(_ text: String) -> Bool {
        !isClean(text.utf8, keepsLayout: true)
    }

    // MARK: - Rules

    /// The symbol a control scalar is shown as, or `nil` when the scalar is no control character.
    private static func symbol(for scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0x00...0x1F: Unicode.Scalar(0x2400 + scalar.value)
        case 0x7F: "\u{2421}"
        case 0x80...0x9F: "\u{FFFD}"
        default: nil
        }
    }

    private static func sanitized(_ text: String, keepsLayout: Bool) -> String {
        if isClean(text.utf8, keepsLayout: keepsLayout) { return text }
        var result = String.UnicodeScalarView()
        let scalars = Array(text.unicodeScalars)
        for (index, scalar) in scalars.enumerated() {
            switch scalar {
            case "\n", "\t":
                result.append(keepsLayout ? scalar : " ")
            case "\r" where index + 1 < scalars.count && scalars[index + 1] == "\n":
                // A CR LF line break: its line feed, next, is the break.
                continue
            default:
                result.append(symbol(for: scalar) ?? scalar)
            }
        }
        return String(result)
    }

    /// Whether the UTF-8 bytes hold nothing to replace: a byte scan, so that clean text (nearly all of it)
    /// costs no copy. A C1 control is the two bytes `C2 80`…`C2 9F` in UTF-8.
    private static func isClean(_ bytes: String.UTF8View, keepsLayout: Bool) -> Bool {
        var afterC2 = false
        for byte in bytes {
            if byte < 0x20 {
                if !keepsLayout || (byte != UInt8(ascii: "\n") && byte != UInt8(ascii: "\t")) { return false }
            } else if byte == 0x7F {
                return false
            } else if afterC2, byte <= 0x9F, byte >= 0x80 {
                return false
            }
            afterC2 = byte == 0xC2
        }
        return true
    }
}
