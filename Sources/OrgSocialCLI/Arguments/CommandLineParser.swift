/// Splits a command's tokens into options, flags and positional arguments according to its
/// ``CommandConfiguration``.
///
/// Accepted forms: `--name value`, `--name=value`, `-n value`, flags `--name`, repeated options
/// (`--tag a --tag b`), a lone `-` as a positional value (standard input), and `--`, after which every
/// token is positional. An option's value is the next token unless that token looks like an option
/// itself (`--text=--odd` passes such a value).
struct CommandLineParser {
    /// The command being parsed.
    let configuration: CommandConfiguration

    /// Parses the tokens that follow the command's name.
    /// - Parameter tokens: the tokens, without `--help` (handled before parsing).
    /// - Returns: the values by name.
    /// - Throws: ``CLIError`` usage errors naming the offending token.
    func parse(_ tokens: [String]) throws -> ParsedArguments {
        var parsed = ParsedArguments()
        var positionals: [String] = []
        var index = 0
        var optionsEnded = false
        while index < tokens.count {
            let token = tokens[index]
            index += 1
            if optionsEnded || !Self.looksLikeOption(token) {
                positionals.append(token)
                continue
            }
            if token == "--" {
                optionsEnded = true
                continue
            }
            let (option, inlineValue) = try resolve(token)
            if option.isFlag {
                guard inlineValue == nil else {
                    throw CLIError.flagWithValue(option.longForm, value: inlineValue ?? "")
                }
                parsed.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < tokens.count, !Self.looksLikeOption(tokens[index]) {
                value = tokens[index]
                index += 1
            } else {
                throw CLIError.missingValue(option: option.synopsis)
            }
            if !option.isRepeatable, parsed.optionValues[option.name] != nil {
                throw CLIError.duplicateOption(option.longForm)
            }
            if !option.allowedValues.isEmpty, !option.allowedValues.contains(value) {
                throw CLIError.invalidValue(
                    value: value, option: option.synopsis,
                    reason: "Please provide one of " + option.allowedValues.map { "'\($0)'" }.joined(separator: ", ")
                        + ".")
            }
            parsed.optionValues[option.name, default: []].append(value)
        }
        for option in configuration.options where option.isRequired && parsed.optionValues[option.name] == nil {
            throw CLIError.missingOption(option.synopsis)
        }
        parsed.argumentValues = try assign(positionals)
        return parsed
    }

    /// Whether a token is an option rather than a value: `--`, `--x…` or `-x…` with a letter after the dash.
    /// A lone `-` (standard input) and negative numbers are values.
    static func looksLikeOption(_ token: String) -> Bool {
        guard token.hasPrefix("-"), token.count > 1 else { return false }
        if token.hasPrefix("--") { return true }
        return token.dropFirst().first?.isLetter ?? false
    }

    /// Finds the definition a token names; returns the inline `=value` if any.
    private func resolve(_ token: String) throws -> (OptionDefinition, String?) {
        if token.hasPrefix("--") {
            let body = token.dropFirst(2)
            let name: Substring
            var inlineValue: String?
            if let equals = body.firstIndex(of: "=") {
                name = body[..<equals]
                inlineValue = String(body[body.index(after: equals)...])
            } else {
                name = body
            }
            if let option = configuration.options.first(where: { $0.isNamed(name) }) {
                return (option, inlineValue)
            }
            throw unknownOption("--" + name)
        }
        let letters = token.dropFirst()
        if letters.count == 1, let option = configuration.options.first(where: { $0.shortName == letters.first }) {
            return (option, nil)
        }
        throw unknownOption(token)
    }

    private func unknownOption(_ token: String) -> CLIError {
        let candidates = configuration.options.flatMap(\.longForms) + ["--help"]
        return CLIError.unknownOption(token, suggestion: NameSuggester.suggestion(for: token, among: candidates))
    }

    /// Hands positional values to the argument definitions in order.
    private func assign(_ positionals: [String]) throws -> [String: [String]] {
        var result: [String: [String]] = [:]
        var remaining = positionals[...]
        for argument in configuration.arguments {
            if argument.isRepeating {
                if remaining.isEmpty, !argument.isOptional { throw CLIError.missingArgument(argument.synopsis) }
                result[argument.name] = Array(remaining)
                remaining = []
            } else if let value = remaining.first {
                result[argument.name] = [value]
                remaining = remaining.dropFirst()
            } else if !argument.isOptional {
                throw CLIError.missingArgument(argument.synopsis)
            }
        }
        if let extra = remaining.first { throw CLIError.unexpectedArgument(extra) }
        return result
    }
}
