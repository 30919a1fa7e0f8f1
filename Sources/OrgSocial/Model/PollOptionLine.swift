/// Reads `- [ ] Option` lines leniently (`^\s*-\s*\[\s*\]\s*(.+)$`, spec §7).
package enum PollOptionLine {
    /// The option a `- [ ] Option` line holds, trimmed, or `nil` when the line is not one.
    /// - Parameter line: one line of a body.
    /// - Returns: the option's text.
    package static func option(in line: Substring) -> String? {
        var scalars = line.unicodeScalars[...]
        func skipSpace() { while let f = scalars.first, f == " " || f == "\t" { scalars = scalars.dropFirst() } }
        skipSpace()
        guard scalars.first == "-" else { return nil }
        scalars = scalars.dropFirst()
        skipSpace()
        guard scalars.first == "[" else { return nil }
        scalars = scalars.dropFirst()
        skipSpace()
        guard scalars.first == "]" else { return nil }
        scalars = scalars.dropFirst()
        let text = String(String.UnicodeScalarView(scalars)).trimmingSpacesAndTabs()
        return text.isEmpty ? nil : text
    }
}
