/// The small syntax checks of the format, for callers that validate input before composing
/// (the composers and the validator use the same rules).
public enum OrgSyntax {
    /// Whether `text` is an absolute `http://` or `https://` URL with a host and no spaces or quotes.
    public static func isHTTPURL(_ text: String) -> Bool { text.isHTTPURL }

    /// Whether `code` is a language code: two or three lowercase letters, optionally `-` and a region or
    /// script (`en`, `es`, `pt-br`, `zh-Hant`).
    public static func isLanguageCode(_ code: String) -> Bool { OrgSocial.isLanguageCode(code) }

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
