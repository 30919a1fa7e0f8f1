/// One `--name [<value>]` option a command accepts, with what its help and usage lines show.
struct OptionDefinition {
    /// The long name without the leading dashes, e.g. `file`.
    var name: String
    /// An optional one-letter alias (`-f`).
    var shortName: Character?
    /// The placeholder shown for the value (`<file>`); `nil` makes the option a flag without a value.
    var valueName: String?
    /// The help text (one sentence or more).
    var help: String
    /// Whether parsing fails when the option is missing.
    var isRequired = false
    /// Whether the option may be given several times (`--tag a --tag b`).
    var isRepeatable = false
    /// The only values accepted; empty accepts anything.
    var allowedValues: [String] = []
    /// The value used when the option is absent, shown in help.
    var defaultValue: String?

    /// A flag: an option without a value.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, shortName: short, valueName: nil, help: help)
    }

    /// An option that takes a value.
    static func value(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, isRequired: Bool = false,
        isRepeatable: Bool = false, allowedValues: [String] = [], defaultValue: String? = nil
    ) -> OptionDefinition {
        OptionDefinition(
            name: name, shortName: short, valueName: valueName ?? name, help: help, isRequired: isRequired,
            isRepeatable: isRepeatable, allowedValues: allowedValues, defaultValue: defaultValue)
    }

    /// Whether the option is a flag.
    var isFlag: Bool { valueName == nil }

    /// `--name`.
    var longForm: String { "--\(name)" }

    /// `--name <value>` (or `--name` for a flag), as quoted in error messages.
    var synopsis: String { valueName.map { "--\(name) <\($0)>" } ?? "--\(name)" }

    /// The piece of the usage line: `--file <file>`, `[--lang <lang>]`, `[--tag <tag> ...]`.
    var usage: String {
        let repeated = isRepeatable ? " ..." : ""
        return isRequired ? synopsis + repeated : "[\(synopsis)\(repeated)]"
    }

    /// The left column of the OPTIONS section: `-f, --file <file>`.
    var helpLabel: String { shortName.map { "-\($0), \(synopsis)" } ?? synopsis }

    /// The help text plus the allowed values and the default.
    var helpText: String {
        var notes: [String] = []
        if !allowedValues.isEmpty { notes.append("values: " + allowedValues.joined(separator: ", ")) }
        if let defaultValue { notes.append("default: " + defaultValue) }
        return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
    }
}
