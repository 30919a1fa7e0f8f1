import Foundation

/// Checks shared by the composers; each throws ``OrgSocialError/invalidInput(field:value:reason:)``.
enum Check {
    /// `text` when it is not blank.
    static func text(_ text: String, field: String) throws -> String {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw OrgSocialError.invalidInput(field: field, value: "", reason: "it is empty; write some text.")
        }
        return text
    }

    /// `text` when it is one line of at most 200 characters.
    static func singleLine(_ text: String, field: String) throws -> String {
        guard !text.contains(where: \.isNewline) else {
            throw OrgSocialError.invalidInput(field: field, value: text, reason: "it must fit on one line.")
        }
        guard text.count <= 200 else {
            throw OrgSocialError.invalidInput(
                field: field, value: String(text.prefix(40)) + "…", reason: "it is longer than 200 characters.")
        }
        return text
    }

    /// `code` trimmed, when it is a language code such as `en` or `pt-br`.
    static func language(_ code: String) throws -> String {
        let code = code.trimmingSpacesAndTabs()
        guard isLanguageCode(code), isKnownLanguage(code) else {
            throw OrgSocialError.invalidInput(
                field: "language", value: code, reason: "use an ISO 639-1 code such as 'en', 'es' or 'pt-br'.")
        }
        return code
    }

    /// `tag` trimmed and without a leading `#`, when it is a tag word.
    static func tag(_ tag: String) throws -> String {
        var tag = tag.trimmingSpacesAndTabs()
        if tag.hasPrefix("#") { tag.removeFirst() }
        guard isTagWord(tag) else {
            throw OrgSocialError.invalidInput(
                field: "tag", value: tag, reason: "tags are single words of letters, digits, '-' and '_'.")
        }
        return tag
    }

    /// `text` trimmed, when it is one emoji (one character: a ZWJ sequence, a flag or a skin tone included).
    static func emoji(_ text: String) throws -> String {
        let trimmed = text.trimmingSpacesAndTabs()
        let isEmoji =
            trimmed.count == 1
            && trimmed.unicodeScalars.contains {
                $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0xFF)
            }
        guard isEmoji else {
            throw OrgSocialError.invalidInput(
                field: "reaction", value: trimmed, reason: "a reaction is one emoji, e.g. 👍.")
        }
        return trimmed
    }

    /// `text` trimmed, when it is an http(s) URL.
    static func url(_ text: String, field: String) throws -> String {
        let url = text.trimmingSpacesAndTabs()
        guard url.isHTTPURL else {
            throw OrgSocialError.invalidInput(
                field: field, value: url, reason: "it must be an http:// or https:// URL.")
        }
        return url
    }

    /// `reference` when its feed URL is an http(s) URL and its ID is one token that is a post ID
    /// (``isPostID(_:)``: a timestamp, not `notanid`).
    static func reference(_ reference: PostReference, field: String) throws -> PostReference {
        _ = try url(reference.feedURL, field: "\(field) feed URL")
        guard !reference.postID.isEmpty, reference.postID.tokens().count == 1 else {
            throw OrgSocialError.invalidInput(
                field: field, value: reference.description, reason: "it must be <feed URL>#<post ID>.")
        }
        guard isPostID(reference.postID) else {
            throw OrgSocialError.invalidInput(
                field: field, value: reference.description,
                reason: "its ID `\(reference.postID)` is not a post ID (a timestamp); copy the post's URL exactly.")
        }
        return reference
    }

    /// `label` when it is one word: a `#+FOLLOW:` line is `[label] <URL>`, so a label with a space would be
    /// read as another label and URL.
    static func followLabel(_ label: String) throws -> String {
        let label = try singleLine(label.trimmingSpacesAndTabs(), field: "label")
        guard !label.contains(where: \.isWhitespace) else {
            throw OrgSocialError.invalidInput(
                field: "label", value: label,
                reason: "it must be one word without spaces (readers take `#+FOLLOW: <label> <URL>` apart at spaces).")
        }
        return label
    }

    /// `group` with its name trimmed (and not empty) and its relay URL checked.
    static func group(_ group: GroupReference) throws -> GroupReference {
        let name = group.name.trimmingSpacesAndTabs()
        guard !name.isEmpty else {
            throw OrgSocialError.invalidInput(field: "group name", value: "", reason: "name the group.")
        }
        return GroupReference(name: name, relayURL: try url(group.relayURL, field: "group relay URL"))
    }
}

/// `en`, `es`, `pt-br`, `zh-Hant`: two or three lowercase letters, optionally a region or script.
/// Whether the language of `code` (the part before a `-`) is one ISO 639-1 names, when it has two letters:
/// a code entered by hand (`--lang zz`) is checked against the list, not only its shape. Three-letter codes
/// (ISO 639-2 and 639-3, several thousand) are taken by their shape. Feeds as read are not checked this way.
func isKnownLanguage(_ code: String) -> Bool {
    let language = code.split(separator: "-", maxSplits: 1).first.map(String.init) ?? code
    return language.utf8.count != 2 || iso639Part1.contains(language)
}

/// The two-letter codes of ISO 639-1 (`sh`, withdrawn but still written, included).
let iso639Part1: Set<String> = Set(
    """
    aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el \
    en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu \
    ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na \
    nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg sh si sk sl sm sn \
    so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
    """.split(separator: " ").map(String.init))

func isLanguageCode(_ code: String) -> Bool {
    // On the UTF-8 bytes (a drawer can repeat `:LANG:` a million times): every byte allowed is ASCII,
    // so counting bytes counts characters.
    let bytes = code.utf8
    let dash = bytes.firstIndex(of: UInt8(ascii: "-"))
    let language = bytes[..<(dash ?? bytes.endIndex)]
    guard (2...3).contains(language.count),
        language.allSatisfy({ $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") })
    else { return false }
    guard let dash else { return true }
    // One region after the dash: letters or digits (a second dash is neither).
    let region = bytes[bytes.index(after: dash)...]
    return (2...4).contains(region.count)
        && region.allSatisfy { byte in
            let letter = byte | 0x20
            return (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
}

/// A tag word: letters, digits, `-`, `_` (ASCII or not).
func isTagWord<Text: StringProtocol>(_ tag: Text) -> Bool {
    !tag.isEmpty
        && tag.unicodeScalars.allSatisfy { scalar in
            // ASCII is decided without the Unicode property tables, which cost more than the rest of a check.
            guard scalar.isASCII else { return scalar.properties.isAlphabetic }
            let value = UInt8(scalar.value)
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(value | 0x20)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(value) || value == UInt8(ascii: "-")
                || value == UInt8(ascii: "_")
        }
}

/// Whether `tag` is a well-formed BCP-47 language tag (RFC 5646, section 2.1) that starts with a
/// language: `language[-extlang][-script][-region](-variant)*(-extension)*[-x-private]`, compared without
/// case. Private-use-only and grandfathered tags are not accepted: a post's language names a language.
func isLanguageTag(_ tag: String) -> Bool {
    guard !tag.isEmpty, tag.utf8.count <= 256 else { return false }
    let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
    func isAlpha(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    func alpha(_ subtag: [UInt8], _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(subtag.count) && subtag.allSatisfy(isAlpha)
    }
    func alphanumeric(_ subtag: [UInt8], _ lengths: ClosedRange<Int>) -> Bool {
        lengths.contains(subtag.count) && subtag.allSatisfy { isAlpha($0) || isDigit($0) }
    }
    var index = 0
    // language = 2*3ALPHA ["-" extlang] / 4ALPHA / 5*8ALPHA; extlang = 3ALPHA *2("-" 3ALPHA)
    guard alpha(subtags[0], 2...8) else { return false }
    index = 1
    if subtags[0].count <= 3 {
        var extlangs = 0
        while index < subtags.count, extlangs < 3, alpha(subtags[index], 3...3) {
            index += 1
            extlangs += 1
        }
    }
    // script = 4ALPHA
    if index < subtags.count, alpha(subtags[index], 4...4) { index += 1 }
    // region = 2ALPHA / 3DIGIT
    if index < subtags.count,
        alpha(subtags[index], 2...2) || (subtags[index].count == 3 && subtags[index].allSatisfy(isDigit))
    {
        index += 1
    }
    // variant = 5*8alphanum / (DIGIT 3alphanum)
    while index < subtags.count {
        let subtag = subtags[index]
        let isVariant =
            alphanumeric(subtag, 5...8) || (subtag.count == 4 && isDigit(subtag[0]) && alphanumeric(subtag, 4...4))
        guard isVariant else { break }
        index += 1
    }
    // extension = singleton 1*("-" (2*8alphanum)); privateuse = "x" 1*("-" (1*8alphanum))
    while index < subtags.count {
        let singleton = subtags[index]
        guard singleton.count == 1, isAlpha(singleton[0]) || isDigit(singleton[0]) else { return false }
        let isPrivate = singleton[0] | 0x20 == UInt8(ascii: "x")
        index += 1
        var parts = 0
        while index < subtags.count, alphanumeric(subtags[index], isPrivate ? 1...8 : 2...8) {
            // In an extension, a one-character subtag starts the next extension instead.
            index += 1
            parts += 1
        }
        guard parts > 0 else { return false }
        if isPrivate { return index == subtags.count }
    }
    return true
}
