import Foundation

/// The one way a command's setting is found: the option's value, else an environment variable, else a
/// configuration value, else a default. Every command family (relay, node, publishing, bridge) resolves
/// its settings here, so they agree on precedence, on what an empty value means, and on the errors.
///
/// **Empty is unset.** An environment variable (or a configuration value) that is set but empty counts as
/// not set, so `ORGSOCIAL_RELAY_PORT=` in a settings file falls through to the configuration or the
/// default rather than failing, as `VAR=` does in most Unix tools.
///
/// A bad value is reported naming where it came from (``Source``): `invalidValue` quoting the option's
/// synopsis, `invalidEnvironment` naming the variable, or `invalidConfiguration` naming the file and key,
/// each saying what a valid value is (``Format/expected``).
struct SettingResolver {
    /// Where a setting's value came from.
    enum Source: Equatable, Sendable {
        /// A command-line option (its synopsis, e.g. `--port <port>`).
        case option(String)
        /// An environment variable (its name).
        case environment(String)
        /// The configuration file (its path) and the key.
        case configuration(path: String, key: String)
        /// The built-in default.
        case `default`
    }

    /// What a setting's text must be, and how it becomes a value.
    struct Format<Value>: Sendable {
        /// What a valid value is, as a noun phrase that completes "Give …" and "it must be …", e.g.
        /// `a whole number from 0 to 65535`.
        let expected: String
        /// The value of a text, or `nil` when the text is not one.
        let parse: @Sendable (String) -> Value?
    }

    /// The command's environment variables.
    let environment: [String: String]

    /// The text of an environment variable, or `nil` when it is unset or empty (the one rule for every
    /// setting).
    /// - Parameter variable: the variable's name, or `nil` for a setting without one.
    /// - Returns: the text, or `nil`.
    func text(of variable: String?) -> String? {
        guard let variable, let text = environment[variable], !text.isEmpty else { return nil }
        return text
    }

    /// Resolves a setting: `option`, else `variable`, else `configuration`, else `defaultValue`.
    ///
    /// The option is given already parsed (options are checked when the command line is read, through
    /// ``value(_:from:as:)``); the variable and the configuration value are parsed here with `format`.
    /// - Parameters:
    ///   - option: the option's value, when given.
    ///   - synopsis: the option's synopsis, e.g. `--port <port>`, for the ``Source``.
    ///   - variable: the environment variable that stands for the option, if any.
    ///   - configuration: the setting's key in the configuration file and how to read its value (called only
    ///     when neither the option nor the variable gives one), if the setting has one; an empty value counts
    ///     as unset.
    ///   - defaultValue: the value when nothing else gives one, or `nil` for none.
    ///   - format: how a variable's or the configuration's text becomes a value.
    /// - Returns: the value and where it came from, or `nil` when nothing gives one.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` or
    ///   ``CLIError/invalidConfiguration(path:reason:)`` for a text that `format` refuses; what reading the
    ///   configuration throws.
    func resolve<Value>(
        option: Value?, synopsis: String = "", variable: String?,
        configuration: (key: String, read: () throws -> String?)? = nil, default defaultValue: Value? = nil,
        as format: Format<Value>
    ) throws -> (value: Value, source: Source)? {
        if let option { return (option, .option(synopsis)) }
        if let variable, let text = text(of: variable) {
            return (try Self.value(text, from: .environment(variable), as: format), .environment(variable))
        }
        if let configuration, let text = try configuration.read(), !text.isEmpty {
            let path = ConfigurationFile(environment: environment)?.path ?? "config.json"
            let source = Source.configuration(path: path, key: configuration.key)
            return (try Self.value(text, from: source, as: format), source)
        }
        return defaultValue.map { ($0, .default) }
    }

    /// Resolves a setting that always has a value (``resolve(option:synopsis:variable:configuration:default:as:)``
    /// with a default).
    /// - Returns: the value.
    /// - Throws: as ``resolve(option:synopsis:variable:configuration:default:as:)``.
    func value<Value>(
        option: Value?, variable: String?, default defaultValue: Value, as format: Format<Value>
    ) throws -> Value {
        try resolve(option: option, variable: variable, default: defaultValue, as: format)?.value ?? defaultValue
    }

    /// Parses a text from `source`, or throws the error that names the source.
    /// - Parameters:
    ///   - text: the text as given.
    ///   - source: where it came from.
    ///   - format: what it must be.
    /// - Returns: the value.
    /// - Throws: ``error(value:from:expected:)``'s error when `format` refuses the text.
    static func value<Value>(_ text: String, from source: Source, as format: Format<Value>) throws -> Value {
        guard let value = format.parse(text) else { throw error(value: text, from: source, expected: format.expected) }
        return value
    }

    /// The error for a bad value from `source`: a usage error for an option, else a runtime error naming
    /// the variable or the configuration file and key.
    /// - Parameters:
    ///   - value: the text as given.
    ///   - source: where it came from.
    ///   - expected: what a valid value is (``Format/expected``).
    /// - Returns: the error.
    static func error(value: String, from source: Source, expected: String) -> CLIError {
        switch source {
        case .option(let synopsis):
            .invalidValue(value: value, option: synopsis, reason: "Give \(expected).")
        case .environment(let name):
            .invalidEnvironment(name: name, value: value, reason: "it must be \(expected), or unset.")
        case .configuration(let path, let key):
            .invalidConfiguration(path: path, reason: "\"\(key)\" is '\(value)': it must be \(expected)")
        case .default:
            .validation("The default value '\(value)' is not \(expected).")
        }
    }
}

// MARK: - Formats

extension SettingResolver.Format where Value == Int {
    /// A whole number within `range`, e.g. `a whole number of seconds from 0 to 86400`.
    /// - Parameters:
    ///   - range: the numbers accepted.
    ///   - unit: what the number counts (`seconds`), or `nil`.
    /// - Returns: the format.
    static func integer(_ range: ClosedRange<Int>, of unit: String? = nil) -> Self {
        Self(
            expected: "a whole number \(unit.map { "of \($0) " } ?? "")from \(range.lowerBound) to \(range.upperBound)"
        ) {
            Int($0).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension SettingResolver.Format where Value == Bool {
    /// A switch: `1`, `true`, `yes` or `on`; `0`, `false`, `no` or `off` (any case, spaces around ignored).
    static var onOff: Self {
        Self(expected: "1 (on) or 0 (off)") { text in
            switch text.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "true", "yes", "on": true
            case "", "0", "false", "no", "off": false
            default: nil
            }
        }
    }
}

extension SettingResolver.Format where Value == String {
    /// Any text.
    static var text: Self { Self(expected: "any text") { $0 } }

    /// An absolute http:// or https:// URL.
    static var httpURL: Self {
        Self(expected: "an http:// or https:// URL") { FeedFileOptions.isHTTPURL($0) ? $0 : nil }
    }

    /// A feed's URL: an absolute http:// or https:// URL without a `?query` or `#fragment`
    /// (``FeedFileOptions/feedURLProblem(_:)``).
    static var feedURL: Self {
        Self(expected: "an http:// or https:// URL without a ?query or #fragment") {
            FeedFileOptions.feedURLProblem($0) == nil ? $0 : nil
        }
    }
}
