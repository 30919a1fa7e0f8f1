import Foundation
import OrgSocial

/// Writing segments out as escaped Org text.
extension HTMLOrgRenderer {
    /// Runs of white space (U+00A0 and U+3000 included) as one space.
    static func collapsingWhitespace(_ text: String) -> String {
        // Most text has only single ASCII spaces: nothing to do.
        var previousSpace = false
        let isPlain = text.utf8.allSatisfy { byte in
            defer { previousSpace = byte == 0x20 }
            return byte >= 0x80 ? false : byte == 0x20 ? !previousSpace : byte >= 0x21 || byte == 0x00
        }
        if isPlain { return text }
        // Never longer than the input: each run of white space becomes one byte.
        return String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var count = 0
            var inSpace = false
            for scalar in text.unicodeScalars {
                let isSpace =
                    scalar.isASCII
                    ? scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0C}"
                        || scalar == "\u{0B}"
                    : scalar.properties.isWhitespace
                if isSpace {
                    if !inSpace {
                        buffer[count] = 0x20
                        count += 1
                    }
                    inSpace = true
                } else {
                    UTF8.encode(scalar) { byte in
                        buffer[count] = byte
                        count += 1
                    }
                    inSpace = false
                }
            }
            return count
        }
    }

    /// A link target that cannot end the link early.
    static func linkTarget(_ url: String) -> String {
        guard url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x5B || $0 == 0x5D || $0 >= 0x80 }) else { return url }
        var result = String.UnicodeScalarView()
        for scalar in url.unicodeScalars {
            switch scalar {
            case "[": result.append(contentsOf: "%5B".unicodeScalars)
            case "]": result.append(contentsOf: "%5D".unicodeScalars)
            case " ": result.append(contentsOf: "%20".unicodeScalars)
            case _ where scalar.properties.isWhitespace: continue
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// A link description that cannot end the link early.
    static func linkDescription(_ text: String) -> String {
        var result = text.replacingBytes("]]", with: "]\u{200B}]")
        if result.hasSuffix("]") { result += "\u{200B}" }
        if result.hasPrefix("[") { result = "\u{200B}" + result }
        return result
    }

    /// Writes paragraph segments as Org text, choosing per emphasis and URL whether its markup works there.
    static func render(_ segments: [Segment]) -> String {
        var output = ""
        render(segments, into: &output)
        return output
    }

    /// Appends the Org text of `segments` to `output`.
    private static func render(_ segments: [Segment], into output: inout String) {
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .text(let text):
                appendText(text, to: &output)
            case .lineBreak:
                while output.last == " " { output.removeLast() }
                output += "\n"
            case .emphasis(let marker, let content):
                var inner = ""
                render(content, into: &inner)
                appendMarked(inner, markers: [marker], next: firstCharacter(segments[(index + 1)...]), to: &output)
            case .code(let text):
                appendMarked(text, markers: ["~", "="], next: firstCharacter(segments[(index + 1)...]), to: &output)
            case .link(let target, let description):
                output += "[[\(linkTarget(target))][\(linkDescription(description))]]"
            case .url(let url):
                let next = firstCharacter(segments[(index + 1)...])
                let lower = url.lowercased()
                let isBare =
                    (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && url.count > 8
                    && !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x3C || $0 == 0x3E || $0 == 0x5B || $0 == 0x5D })
                    && !(url.utf8.contains(where: { $0 >= 0x80 })
                        && url.unicodeScalars.contains(where: \.properties.isWhitespace))
                    && !(url.last.map(OrgInline.urlTrailingPunctuation.contains) ?? true)
                    && !(output.last?.isLetter ?? false)
                    && (next == nil || next?.isWhitespace == true
                        || followingWord(segments[(index + 1)...]).map {
                            $0.allSatisfy(OrgInline.urlTrailingPunctuation.contains)
                        } == true)
                output += isBare ? url : "[[\(linkTarget(url))]]"
            }
        }
    }

    /// Appends text, dropping a space where one already ends the output and breaking `[[`.
    private static func appendText(_ text: String, to output: inout String) {
        var text = Substring(text)
        if text.first == " ", output.isEmpty || output.last == " " || output.last == "\n" {
            text = text.dropFirst()
        }
        guard !text.isEmpty else { return }
        if text.first == "[" || text.containsBytes("[[") {
            var escaped = ""
            for character in text {
                if character == "[", (escaped.last ?? output.last) == "[" { escaped.append("\u{200B}") }
                escaped.append(character)
            }
            output += escaped
        } else {
            output += text
        }
    }

    /// Appends `text` between the first of `markers` Org would read as markup there, or bare.
    private static func appendMarked(_ text: String, markers: [Character], next: Character?, to output: inout String) {
        let core = text.trimming([" "])
        guard !core.isEmpty else {
            appendText(text, to: &output)
            return
        }
        if text.first == " " { appendText(" ", to: &output) }
        let before = output.last
        let after = text.last == " " ? " " : next
        let bordersFit =
            (before == nil || OrgInline.preBorder.contains(before ?? " "))
            && (after == nil || OrgInline.postBorder.contains(after ?? " "))
            && core.filter({ $0 == "\n" }).count <= 1 && !core.hasPrefix("\n") && !core.hasSuffix("\n")
        if bordersFit, let marker = markers.first(where: { !core.contains($0) }) {
            output += String(marker) + core + String(marker)
        } else {
            appendText(core, to: &output)
        }
        if text.last == " " { appendText(" ", to: &output) }
    }

    /// The text the segments write up to the next white space, or `nil` when markup comes first.
    private static func followingWord(_ segments: ArraySlice<Segment>) -> String? {
        var word = ""
        for segment in segments {
            switch segment {
            case .text(let text):
                word += text.prefix { !$0.isWhitespace }
                if text.contains(where: \.isWhitespace) { return word }
            case .lineBreak: return word
            default: return nil
            }
        }
        return word
    }

    /// The first character the segments would write (markers and link brackets included, roughly).
    private static func firstCharacter(_ segments: ArraySlice<Segment>) -> Character? {
        for segment in segments {
            switch segment {
            case .text(let text): if let first = text.first { return first }
            case .lineBreak: return "\n"
            case .emphasis(let marker, _): return marker
            case .code: return "~"
            case .link: return "["
            case .url: return "h"
            }
        }
        return nil
    }
}
