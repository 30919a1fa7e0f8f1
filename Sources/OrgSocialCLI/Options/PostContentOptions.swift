import Foundation
import OrgSocial

/// The options that describe a post's content besides its text: `--lang`, `--tag`, `--mood`,
/// `--visibility`.
struct PostContentOptions {
    /// `--lang <lang>`.
    static let languageOption = OptionDefinition.value(
        "lang", valueName: "code", help: "The post's language, an ISO 639-1 code such as 'en'.")
    /// `--tag <tag>` (repeatable).
    static let tagOption = OptionDefinition.value(
        "tag", help: "A tag (one word of letters, digits, '-' or '_'); repeat for several tags.", isRepeatable: true)
    /// `--mood <mood>`.
    static let moodOption = OptionDefinition.value("mood", help: "A mood shown with the post, usually an emoji.")
    /// `--visibility <visibility>`.
    static let visibilityOption = OptionDefinition.value(
        "visibility",
        help: "Who clients show the post to; 'mention' needs an [[org-social:URL][name]] link in the text.",
        allowedValues: ["public", "mention"], defaultValue: "public")

    /// The four definitions, in help order.
    static let definitions = [languageOption, tagOption, moodOption, visibilityOption]

    /// `:LANG:`.
    var language: String?
    /// `:TAGS:`.
    var tags: [String]
    /// `:MOOD:`.
    var mood: String?
    /// `:VISIBILITY:`.
    var visibility: Visibility

    /// Reads the options; each `--tag` value is one tag.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` for a `--tag` value holding a space, which
    ///   would silently become two tags.
    init(parsing arguments: ParsedArguments) throws {
        language = arguments.value("lang")
        tags = try arguments.values("tag").map { value in
            let tag = value.trimmingCharacters(in: .whitespaces)
            guard !tag.contains(where: \.isWhitespace) else {
                throw CLIError.invalidValue(
                    value: value, option: Self.tagOption.synopsis,
                    reason: "A tag is one word; give each tag with its own --tag, e.g. --tag emacs --tag org-mode.")
            }
            return tag
        }
        mood = arguments.value("mood")
        visibility = arguments.value("visibility").map(Visibility.init(rawValue:)) ?? .public
    }

    /// The post's language: `--lang`, else the `language` setting.
    /// - Returns: the language code, or `nil` when none is given or set.
    /// - Throws: ``CLIError`` for a `language` setting that is not a language code, or an unreadable
    ///   configuration.
    func language(in context: CommandContext) throws -> String? {
        try Self.language(option: language, in: context)
    }

    /// A new post's language (`post`, `reply`, `poll`, `boost --text`): `option` (checked by the composer),
    /// else `ORGSOCIAL_LANG`, else `"language"` in the configuration, else `nil`.
    /// - Parameters:
    ///   - option: the command's `--lang`.
    ///   - context: the command's context.
    /// - Returns: the language code, or `nil` when none is given or set.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` or
    ///   ``CLIError/invalidConfiguration(path:reason:)`` for a setting that is not a language code.
    static func language(option: String?, in context: CommandContext) throws -> String? {
        if let option { return option }
        guard let key = ConfigurationKey.named("language"),
            let (value, source) = try key.effectiveValue(
                in: try ConfigurationFile.load(in: context), environment: context.environment)
        else { return nil }
        return try LanguageInput.code(value, from: source)
    }
}
