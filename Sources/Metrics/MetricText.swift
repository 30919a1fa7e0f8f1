/// The pieces of the text exposition format: names, escaping and numbers.
package enum MetricText {
    /// A `# HELP` text with `\` and line feeds escaped.
    ///
    /// - Parameter help: The text.
    /// - Returns: The escaped text.
    package static func escapedHelp(_ help: String) -> String {
        var result = ""
        for character in help.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A label value with `\`, `"` and line feeds escaped.
    ///
    /// - Parameter value: The value.
    /// - Returns: The escaped value, without the quotes.
    package static func escapedLabelValue(_ value: String) -> String {
        var result = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// A sample value as Prometheus writes it: whole numbers without a fraction, `+Inf`, `-Inf`, `NaN`.
    ///
    /// - Parameter value: The value.
    /// - Returns: The text.
    package static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "+Inf" }
        if value == -.infinity { return "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    /// One sample line: `name{label="value",…} value`.
    static func sampleLine(_ name: String, labels: [(String, String)], value: Double) -> String {
        guard !labels.isEmpty else { return "\(name) \(number(value))\n" }
        let pairs = labels.map { "\($0.0)=\"\(escapedLabelValue($0.1))\"" }.joined(separator: ",")
        return "\(name){\(pairs)} \(number(value))\n"
    }

    /// Whether `name` is a metric name: `[a-zA-Z_:][a-zA-Z0-9_:]*`.
    static func isValidMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) || first == "_" || first == ":" else {
            return false
        }
        return name.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" || $0 == ":" }
    }

    /// Whether `name` is a label name: `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__` (reserved).
    static func isValidLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, isLetter(first) || first == "_", !name.hasPrefix("__") else {
            return false
        }
        return name.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" }
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }
}
