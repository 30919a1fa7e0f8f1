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
    /// Other long names accepted for it (older spellings, without dashes); its value is read under
    /// ``name`` whichever is typed, and help lists them.
    var aliases: [String] = []
    /// The one usage token that stands for this option and the others of its family (the publishing
    /// settings: `[--publish-<setting> <value> ...]`), so usage lines stay short; `nil` shows its own.
    var usageFamily: String?

    /// A flag: an option without a value.
    static func flag(_ name: String, short: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, shortName: short, valueName: nil, help: help)
    }

    /// An option that takes a value.
    static func value(
        _ name: String, short: Character? = nil, valueName: String? = nil, help: String, isRequired: Bool = false,
        isRepeatable: Bool = false, allowedValues: [String] = [], defaultValue: String? = nil, aliases: [String] = []
    ) -> OptionDefinition {
        OptionDefinition(
            name: name, shortName: short, valueName: valueName ?? name, help: help, isRequired: isRequired,
            isRepeatable: isRepeatable, allowedValues: allowedValues, defaultValue: defaultValue, aliases: aliases)
    }

    /// Whether `name` (without dashes) is the option's name or one of its aliases.
    func isNamed(_ name: some StringProtocol) -> Bool {
        self.name == name || aliases.contains { $0 == name }
    }

    /// `--name` and the aliases' `--alias`, as typed.
    var longForms: [String] { [longForm] + aliases.map { "--" + $0 } }

    /// Whether the option is a flag.
    var isFlag: Bool { valueName == nil }

    /// What shell completion offers for the value: the allowed values, else file or folder names by the
    /// value's name (`<file>`, `<dir>`); `.none` for a flag.
    var completion: ValueCompletion {
        valueName.map { ValueCompletion(name: $0, allowedValues: allowedValues) } ?? .none
    }

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
        if !aliases.isEmpty {
            notes.append(
                (aliases.count == 1 ? "alias: " : "aliases: ") + aliases.map { "--" + $0 }.joined(separator: ", "))
        }
        if !allowedValues.isEmpty { notes.append("values: " + allowedValues.joined(separator: ", ")) }
        if let defaultValue { notes.append("default: " + defaultValue) }
        return notes.isEmpty ? help : "\(help) (\(notes.joined(separator: "; ")))"
    }
}
