/// One positional argument a command accepts (`<file>`, `<files> ...`).
struct ArgumentDefinition {
    /// The placeholder name without angle brackets, e.g. `file`.
    var name: String
    /// The help text.
    var help: String
    /// Whether the argument may be left out.
    var isOptional = false
    /// Whether it takes every remaining positional value (it must then be the last argument).
    var isRepeating = false
    /// The values it takes, offered by shell completion (the command checks them, with its own message);
    /// empty when any value goes.
    var allowedValues: [String] = []

    /// What shell completion offers for it: the allowed values, else file or folder names by its name.
    var completion: ValueCompletion { ValueCompletion(name: name, allowedValues: allowedValues) }

    /// `<name>`, as quoted in error messages.
    var synopsis: String { "<\(name)>" }

    /// The piece of the usage line: `<file>`, `[<file>]`, `<files> ...`.
    var usage: String {
        let repeated = isRepeating ? " ..." : ""
        return isOptional ? "[\(synopsis)\(repeated)]" : synopsis + repeated
    }
}
