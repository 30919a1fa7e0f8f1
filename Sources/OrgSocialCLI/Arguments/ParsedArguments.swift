/// The values found on a command line, by option and argument name, before they are given types.
struct ParsedArguments {
    /// Values of options that take one, by long name, in the order given.
    var optionValues: [String: [String]] = [:]
    /// Long names of the flags that were given.
    var flags: Set<String> = []
    /// Positional values by argument name.
    var argumentValues: [String: [String]] = [:]

    /// The value of an option given at most once, or `nil`.
    func value(_ name: String) -> String? { optionValues[name]?.last }

    /// Every value of a repeatable option.
    func values(_ name: String) -> [String] { optionValues[name] ?? [] }

    /// The value of a required option.
    /// - Throws: ``CLIError/missingOption(_:)`` (the parser already rejects this, so it is a safety net).
    func requiredValue(_ name: String) throws -> String {
        guard let value = value(name) else { throw CLIError.missingOption("--\(name)") }
        return value
    }

    /// Whether a flag was given.
    func flag(_ name: String) -> Bool { flags.contains(name) }

    /// The value of a single positional argument, or `nil`.
    func argument(_ name: String) -> String? { argumentValues[name]?.first }

    /// The value of a required positional argument.
    /// - Throws: ``CLIError/missingArgument(_:)`` (the parser already rejects this, so it is a safety net).
    func requiredArgument(_ name: String) throws -> String {
        guard let value = argument(name) else { throw CLIError.missingArgument("<\(name)>") }
        return value
    }

    /// Every value of a repeating positional argument.
    func arguments(_ name: String) -> [String] { argumentValues[name] ?? [] }
}
