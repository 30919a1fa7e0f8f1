import OrgSocial

/// Language codes as they enter the CLI (options, environment variables, settings), checked by
/// `OrgSyntax.languageCode(_:)`, the check a post's `--lang` gets, and lists read with
/// `OrgSyntax.languageCodes(in:)`, so `en,es` and `"en es"` mean the same everywhere.
enum LanguageInput {
    /// Where a value came from, for the error.
    typealias Source = SettingResolver.Source

    /// One language code.
    /// - Parameters:
    ///   - text: the value as given.
    ///   - source: where it came from.
    /// - Returns: the code, trimmed.
    /// - Throws: ``CLIError`` naming the source, the value and what a code looks like.
    static func code(_ text: String, from source: Source) throws -> String {
        do {
            return try OrgSyntax.languageCode(text)
        } catch let error as OrgSocialError {
            throw Self.error(error, value: text, source: source)
        }
    }

    /// A list of language codes, comma- or space-separated.
    /// - Parameters:
    ///   - text: the list as given.
    ///   - source: where it came from.
    /// - Returns: the codes, in order, without duplicates (`[]` for an empty list).
    /// - Throws: ``CLIError`` naming the source and the first bad code.
    static func list(_ text: String, from source: Source) throws -> [String] {
        do {
            return try OrgSyntax.languageCodes(in: text)
        } catch let error as OrgSocialError {
            throw Self.error(error, value: text, source: source)
        }
    }

    /// The error for a bad value from `source`.
    private static func error(_ error: OrgSocialError, value: String, source: Source) -> CLIError {
        var code = value
        if case .invalidInput(_, let bad, _) = error { code = bad }
        let reason = "'\(code)' is not an ISO 639-1 language code such as 'en', 'es' or 'pt-br'."
        switch source {
        case .option(let option):
            return .invalidValue(value: value, option: option, reason: reason)
        case .default:
            return SettingResolver.error(value: value, from: .default, expected: "a language code")
        case .environment(let name):
            return .invalidEnvironment(name: name, value: value, reason: reason + " Fix it, or unset it.")
        case .configuration(let path, let key):
            return .invalidConfiguration(path: path, reason: "\"\(key)\" is '\(value)'. \(reason.dropLast())")
        }
    }
}
