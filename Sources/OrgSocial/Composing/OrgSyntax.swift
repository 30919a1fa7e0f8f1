/// The small syntax checks of the format, for callers that validate input before composing
/// (the composers and the validator use the same rules).
public enum OrgSyntax {
    /// Whether `text` is an absolute `http://` or `https://` URL with a host and no spaces or quotes.
    public static func isHTTPURL(_ text: String) -> Bool { text.isHTTPURL }

    /// Whether `code` is a language code: two or three lowercase letters, optionally `-` and a region or
    /// script (`en`, `es`, `pt-br`, `zh-Hant`).
    public static func isLanguageCode(_ code: String) -> Bool { OrgSocial.isLanguageCode(code) }

    /// `code` without surrounding spaces, when it is a language code: the check the composers make of a
    /// post's language, for every other place a code is entered (settings, filters, `LANG` properties).
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` saying what a code looks like.
    public static func languageCode(_ code: String) throws -> String { try Check.language(code) }

    /// The language codes of a list, written with commas, spaces or both (`en,es`, `"en es"`,
    /// `en, es`): the one list syntax of `#+LANGUAGE`, timeline filters and settings. Each code is
    /// checked as ``languageCode(_:)``; duplicates are dropped, the order is kept; an empty list is `[]`.
    /// - Throws: ``OrgSocialError/invalidInput(field:value:reason:)`` for the first item that is not a
    ///   language code.
    public static func languageCodes(in list: String) throws -> [String] {
        var codes: [String] = []
        for item in list.split(whereSeparator: { $0 == "," || $0.isWhitespace }) {
            let code = try Check.language(String(item))
            if !codes.contains(code) { codes.append(code) }
        }
        return codes
    }

    /// Whether `tag` is a tag word: letters, digits, `-` and `_`.
    public static func isTagWord(_ tag: String) -> Bool { OrgSocial.isTagWord(tag) }

    /// Whether `text` is `YYYY-MM-DD` naming a real day (the `#+BIRTHDAY` form).
    public static func isISODate(_ text: String) -> Bool { OrgSocial.isISODate(text) }

    /// Whether `text` starts with a URI scheme (`mailto:`, `xmpp:`, `https:` …), as `#+CONTACT` needs.
    public static func hasURIScheme(_ text: String) -> Bool { OrgSocial.hasURIScheme(text) }

    /// Whether `text` is a nick: not empty and without whitespace.
    public static func isNick(_ text: String) -> Bool {
        !text.isEmpty && !text.contains(where: \.isWhitespace)
    }
}
