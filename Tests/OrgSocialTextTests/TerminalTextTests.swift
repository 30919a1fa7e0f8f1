import OrgSocialText
import Testing

/// Remote text made safe for a terminal: no control character survives, the text stays readable, and
/// line breaks and tabs are kept only where the layout allows.
@Suite
struct TerminalTextTests {
    /// Every C0 control, DEL and every C1 control.
    static let controls: [Unicode.Scalar] =
        (UInt8(0x00)...0x1F).map(Unicode.Scalar.init) + [Unicode.Scalar(UInt8(0x7F))]
        + (UInt8(0x80)...0x9F).map(Unicode.Scalar.init)

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    @Test func everyControlButLineBreakAndTabIsMadeVisibleInABlock() {
        for scalar in Self.controls {
            let text = "a\(Character(scalar))b"
            let block = TerminalText.block(text)
            if scalar == "\n" || scalar == "\t" {
                #expect(block == text)
            } else {
                #expect(!block.unicodeScalars.contains(where: Self.isControl), "U+\(scalar.value)")
                #expect(block.hasPrefix("a") && block.hasSuffix("b") && block.unicodeScalars.count == 3)
            }
        }
    }

    @Test func aLineHasNoControlAtAll() {
        for scalar in Self.controls {
            let line = TerminalText.line("a\(Character(scalar))b")
            #expect(!line.unicodeScalars.contains(where: Self.isControl), "U+\(scalar.value)")
        }
        #expect(TerminalText.line("one\ntwo\tthree\r\nfour") == "one two three four")
    }

    @Test func escapeSequencesPrintAsTheirCharacters() {
        #expect(TerminalText.block("\u{1B}]52;c;SGVsbG8=\u{07}x") == "␛]52;c;SGVsbG8=␇x")
        #expect(TerminalText.block("\u{1B}[2J\u{1B}[H") == "␛[2J␛[H")
        #expect(TerminalText.block("\u{9B}31mred") == "\u{FFFD}31mred")
        #expect(TerminalText.block("over\rwrite\u{08}\u{7F}") == "over␍write␈␡")
        #expect(TerminalText.block("\u{1B}P1$qm\u{1B}\\") == "␛P1$qm␛\\")
    }

    @Test func lineBreaksOfBothKindsAndTabsStayInABlock() {
        #expect(TerminalText.block("a\r\nb\n\tc") == "a\nb\n\tc")
    }

    @Test func cleanTextIsUnchanged() {
        let text = "Héllo 👋 — «quoted» ünïcode\n\tand a tab, U+00A0:\u{A0}."
        #expect(TerminalText.block(text) == text)
        #expect(!TerminalText.needsSanitizing(text))
        #expect(TerminalText.needsSanitizing("a\u{85}b"))
    }
}
