import Foundation
import OrgSocial
import Testing

// Shared helpers for the OrgSocial tests: byte conversions, fixed clocks and time zones, byte-exact
// splice checks for the editor, and fixture loading.

/// The UTF-8 bytes of a text.
func utf8(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Bytes decoded as UTF-8 (invalid bytes as U+FFFD).
func decoded(_ bytes: some Sequence<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }

/// A fixed time zone `seconds` east of UTC.
func zone(_ seconds: Int) -> TimeZone {
    guard let zone = TimeZone(secondsFromGMT: seconds) else { fatalError("bad test time zone \(seconds)") }
    return zone
}

let utcZone = zone(0)
let cetZone = zone(3600)

/// The instant of a strict timestamp written in a test (crashes the test on a typo, which is what we want).
func instant(_ timestamp: String) -> Date {
    guard let date = OrgTimestamp(timestamp).instant else { fatalError("not a valid test timestamp: \(timestamp)") }
    return date
}

/// The byte range of the only occurrence of `needle` in `bytes`.
func uniqueRange(of needle: String, in bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> Range<Int>
{
    let pattern = utf8(needle)
    var found: [Range<Int>] = []
    if !pattern.isEmpty, pattern.count <= bytes.count {
        for start in 0...(bytes.count - pattern.count) where bytes[start..<start + pattern.count].elementsEqual(pattern)
        {
            found.append(start..<start + pattern.count)
        }
    }
    #expect(
        found.count == 1, "expected exactly one occurrence of \(needle.debugDescription)",
        sourceLocation: sourceLocation)
    return found.first ?? 0..<0
}

/// Checks that `new` is `old` with exactly `range` replaced by `replacement`: the bytes before the range are
/// the same prefix, the bytes after it the same suffix, and what lies between is `replacement`.
func expectSplice(
    old: [UInt8], new: [UInt8], replacing range: Range<Int>, with replacement: [UInt8],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let suffixCount = old.count - range.upperBound
    #expect(new.count == old.count - range.count + replacement.count, "length", sourceLocation: sourceLocation)
    guard new.count >= range.lowerBound + suffixCount else { return }
    #expect(
        Array(new.prefix(range.lowerBound)) == Array(old.prefix(range.lowerBound)), "prefix",
        sourceLocation: sourceLocation)
    #expect(Array(new.suffix(suffixCount)) == Array(old.suffix(suffixCount)), "suffix", sourceLocation: sourceLocation)
    let middle = Array(new[range.lowerBound..<(new.count - suffixCount)])
    #expect(decoded(middle) == decoded(replacement), "replaced bytes", sourceLocation: sourceLocation)
    #expect(middle == replacement, "replaced bytes (exact)", sourceLocation: sourceLocation)
}

/// Checks that `new` is `old` with `inserted` put at `offset`.
func expectInsertion(
    old: [UInt8], new: [UInt8], at offset: Int, of inserted: [UInt8], sourceLocation: SourceLocation = #_sourceLocation
) {
    expectSplice(old: old, new: new, replacing: offset..<offset, with: inserted, sourceLocation: sourceLocation)
}

/// The codes of diagnostics, in order.
func codes(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.code.rawValue) }

/// `code@line:column` for each diagnostic, in order (compact and exact for expectations).
func places(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.code.rawValue)@\($0.line):\($0.column)" }
}

/// The file names in `Fixtures/`, read through `Bundle.module`.
enum Fixture {
    static func url(_ name: String) throws -> URL {
        let folder = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        return folder.appendingPathComponent(name)
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url(name)))
    }

    static func feed(_ name: String) throws -> Feed {
        Feed(bytes: try bytes(name))
    }
}
