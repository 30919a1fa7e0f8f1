import Foundation

/// The content of a post before it is written into a feed: its properties and body.
///
/// Make drafts with the composers (``post(_:language:tags:mood:visibility:)``, ``reply(to:text:language:tags:mood:visibility:)``,
/// ``reaction(to:emoji:)``, ``boost(of:)``, ``poll(question:options:endsAt:now:timeZone:language:)``, …), which check
/// their inputs, then add them with ``Feed/append(_:at:timeZone:)``. A draft made from an existing post
/// (``init(_:)``) is what ``Feed/updatePost(id:_:)`` hands to its closure.
///
/// Properties are written in one fixed order (``canonicalOrder``) and only when they have a value.
public struct PostDraft: Sendable, Hashable {
    /// The body text (Org markup). Lines starting with `* ` or `** ` are escaped when written.
    public var body: String
    /// `:LANG:`.
    public var language: String?
    /// `:TAGS:` (written space-separated).
    public var tags: [String]
    /// `:CLIENT:`; `orgsocial` by default.
    public var client: String?
    /// `:REPLY_TO:`.
    public var replyTo: PostReference?
    /// `:INCLUDE:`.
    public var include: PostReference?
    /// `:POLL_END:` (a timestamp, as written).
    public var pollEnd: String?
    /// `:POLL_OPTION:`.
    public var pollOption: String?
    /// `:GROUP:`.
    public var group: GroupReference?
    /// `:VISIBILITY:`; `nil` (or `.public`) writes nothing.
    public var visibility: Visibility?
    /// `:MIGRATION:`.
    public var migration: Migration?
    /// `:BOT:`.
    public var bot: BotPayload?
    /// `:MOOD:`.
    public var mood: String?
    /// Other properties, written after the known ones in this order (never `ID`).
    public var extraProperties: [Property]

    /// The name of the client written by default.
    public static let defaultClient = "orgsocial"

    /// The order known properties are written in.
    public static let canonicalOrder = [
        "LANG", "TAGS", "CLIENT", "REPLY_TO", "INCLUDE", "POLL_END", "POLL_OPTION", "GROUP", "VISIBILITY",
        "MIGRATION", "BOT", "MOOD",
    ]

    /// Makes a draft from raw parts without checks (the composers check).
    /// - Parameters:
    ///   - body: the body text.
    ///   - client: the client name; `orgsocial` by default.
    public init(body: String = "", client: String? = PostDraft.defaultClient) {
        self.body = body
        self.tags = []
        self.client = client
        self.extraProperties = []
    }

    /// A draft holding what an existing post holds (first non-empty value of each property; unknown
    /// properties kept in order; `ID` left out since the ID never changes).
    /// - Parameter post: the post to copy.
    public init(_ post: Post) {
        self.init(body: post.body, client: post.client)
        language = post.language
        tags = post.value(of: "TAGS")?.tokens() ?? []
        replyTo = post.replyTo
        include = post.include
        pollEnd = post.value(of: "POLL_END")
        pollOption = post.pollOption
        group = post.group
        visibility = post.value(of: "VISIBILITY").map(Visibility.init(rawValue:))
        migration = post.migration
        bot = post.bot
        mood = post.mood
        var seen: Set<String> = []
        for property in post.properties where !property.value.isEmpty {
            let upper = property.name.uppercased()
            guard upper != "ID", !Self.canonicalOrder.contains(upper), seen.insert(upper).inserted else { continue }
            extraProperties.append(Property(name: property.name, value: property.value))
        }
    }

    /// The properties to write, in canonical order, without empty ones.
    ///
    /// This is the one place where a draft's values become property lines, whoever filled them in (a
    /// composer, the bridge's pull from a remote server, an engine), so it is where their grammar is
    /// enforced: a value that would not stay one property line is left out rather than written. No
    /// value with a line break or a control character, and none holding a drawer marker (`:END:`,
    /// `:PROPERTIES:`), is ever written; a property name is a word of letters, digits, `-` and `_`;
    /// `LANG` is a BCP-47 language tag written in the form the format reads (``writtenLanguage(_:)``),
    /// or left out; each tag is one token. Existing lines that fail the checks are left as they are by
    /// an edit that does not change them (``Feed/updatePost(id:_:)`` compares these lists).
    public var orderedProperties: [(name: String, value: String)] {
        var result: [(String, String)] = []
        func add(_ name: String, _ value: String?) {
            guard let value = value?.trimmingSpacesAndTabs(), !value.isEmpty, Self.isPropertyValue(value),
                Self.isPropertyName(name)
            else { return }
            result.append((name, value))
        }
        add("LANG", language.flatMap(Self.writtenLanguage))
        add("TAGS", writtenTags.joined(separator: " "))
        add("CLIENT", client)
        add("REPLY_TO", replyTo?.description)
        add("INCLUDE", include?.description)
        add("POLL_END", pollEnd)
        add("POLL_OPTION", pollOption)
        add("GROUP", group?.value)
        if let visibility, visibility != .public { add("VISIBILITY", visibility.rawValue) }
        add("MIGRATION", migration.map { "\($0.oldURL) \($0.newURL)" })
        add("BOT", bot.map { ([$0.type] + $0.parameters).joined(separator: " ") })
        for extra in extraProperties where extra.name.uppercased() != "ID" { add(extra.name.uppercased(), extra.value) }
        add("MOOD", mood)
        return result
    }

    /// The tags `TAGS` holds: each one token (no white space) that can stand in a property line; the others
    /// are left out.
    private var writtenTags: [String] {
        tags.filter { !$0.isEmpty && !$0.contains(where: \.isWhitespace) && Self.isPropertyValue($0) }
    }

    /// Whether `value` can be the value of one property line: no line break or other control
    /// character (a tab is fine), and no drawer marker.
    static func isPropertyValue(_ value: String) -> Bool {
        guard
            !value.unicodeScalars.contains(where: { scalar in
                (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
                    || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator || (0x80...0x9F).contains(scalar.value)
            })
        else { return false }
        let upper = value.uppercased()
        return !upper.contains(":END:") && !upper.contains(":PROPERTIES:")
    }

    /// Whether `name` can name a property: letters, digits, `-` and `_` (ASCII).
    static func isPropertyName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: "_")
            }
    }

    /// The `LANG` value written for a language: `code` itself when it is a language code as the format
    /// reads one (`en`, `pt-br`); for another BCP-47 tag (RFC 5646), its language and, when the pair is
    /// a language code, the next subtag, with the language in lower case (`EN` → `en`,
    /// `zh-Hant-TW` → `zh-Hant`, `en-US-x-twain` → `en-US`); `nil` for anything that is no BCP-47 tag.
    /// - Parameter code: the language as given (a server's `language` field, say).
    /// - Returns: the value to write, or `nil` to write no `LANG`.
    public static func writtenLanguage(_ code: String) -> String? {
        let code = code.trimmingSpacesAndTabs()
        if isLanguageCode(code) { return code }
        guard isLanguageTag(code) else { return nil }
        let subtags = code.split(separator: "-")
        guard let first = subtags.first else { return nil }
        let language = first.lowercased()
        guard isLanguageCode(language) else { return nil }
        if subtags.count > 1, isLanguageCode(language + "-" + subtags[1]) { return language + "-" + subtags[1] }
        return language
    }

    /// The body as it will be written: line breaks normalised to `\n`, leading and trailing blank lines
    /// removed, and lines that would start a heading (`*`/`**` + space) prefixed with a space (spec §6).
    public var escapedBody: String {
        let normalized = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var lines = normalized.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while let first = lines.first, first.trimmingSpacesAndTabs().isEmpty { lines.removeFirst() }
        while let last = lines.last, last.trimmingSpacesAndTabs().isEmpty { lines.removeLast() }
        return lines.map { Self.needsEscape($0) ? " " + $0 : $0 }.joined(separator: "\n")
    }

    /// Whether a body line would be read as a level-1 or level-2 heading.
    static func needsEscape(_ line: String) -> Bool {
        var stars = 0
        var rest = line.unicodeScalars[...]
        while rest.first == "*" {
            stars += 1
            rest = rest.dropFirst()
        }
        guard stars == 1 || stars == 2 else { return false }
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }

    /// The post's text in the canonical layout: `** <ID>`, the drawer, a blank line, the body; lines end
    /// with `\n` (the last one included).
    /// - Parameter id: the post ID.
    /// - Returns: The post's Org text.
    public func render(id: String) -> String {
        var text = "** \(id)\n:PROPERTIES:\n"
        for (name, value) in orderedProperties { text += ":\(name): \(value)\n" }
        text += ":END:\n"
        let body = escapedBody
        if !body.isEmpty { text += "\n\(body)\n" }
        return text
    }
}
