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

    /// The post's language: `--lang`, else the `language` setting (`ORGSOCIAL_LANG`, else the
    /// configuration), when it is a language code.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)`` when the configuration cannot be read.
    func language(in context: CommandContext) throws -> String? {
        if let language { return language }
        guard let key = ConfigurationKey.named("language"),
            let (value, _) = key.effectiveValue(
                in: try ConfigurationFile.load(in: context), environment: context.environment),
            OrgSyntax.isLanguageCode(value)
        else { return nil }
        return value
    }
}
