import EngineProtocol
import Foundation
import OrgSocial

/// How the official engine turns `publish` and `edit` params into a post's text and properties
/// (engine-protocol.md §8.2, §8.3).
enum PostComposition {
    /// `text` with `\r\n` as `\n` and trimmed (heading lines are escaped by `PostDraft` when it is
    /// written), and `@nick` linked for every nick of `mentions`.
    static func body(_ text: String, mentions: [String: String]) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
            of: "\u{2028}", with: "\n")
        return link(normalized.trimmingCharacters(in: .whitespacesAndNewlines), mentions: mentions)
    }

    /// Replaces `@nick` by `[[org-social:<url>][nick]]` where the `@` starts the text or follows whitespace
    /// or `(`, and the nick is followed by the end, whitespace or one of `),;:!?'`.
    static func link(_ text: String, mentions: [String: String]) -> String {
        guard !mentions.isEmpty else { return text }
        let characters = Array(text)
        var output = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let startsWord = index == 0 || characters[index - 1].isWhitespace || characters[index - 1] == "("
            if character == "@", startsWord {
                let match = mentions.keys.sorted { $0.count > $1.count }.first { nick in
                    let end = index + 1 + nick.count
                    guard end <= characters.count, String(characters[(index + 1)..<end]) == nick else { return false }
                    return end == characters.count || characters[end].isWhitespace
                        || "),;:!?'".contains(characters[end])
                }
                if let nick = match, let url = mentions[nick] {
                    output += Mention.link(to: url, name: nick)
                    index += 1 + nick.count
                    continue
                }
            }
            output.append(character)
            index += 1
        }
        return output
    }

    /// `tags` split at commas, whitespace and `;`, without `#`.
    static func tags(_ text: String) -> [String] {
        text.split { $0 == "," || $0.isWhitespace }.map { $0.filter { $0 != "#" && $0 != ";" } }.filter { !$0.isEmpty }
    }

    /// Checks a `lang` param: 2–3 letters, then `-`/`_` parts of 2–8 letters or digits.
    static func checkLanguage(_ lang: String) throws(RPCError) {
        let parts = lang.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        let valid =
            parts.first.map { (2...3).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isLetter } } ?? false
            && parts.dropFirst().allSatisfy {
                (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }
        guard valid else { throw .invalidParams("lang must be a language code like \"en\"") }
    }

    /// Checks a `visibility` param.
    static func visibility(_ value: String?) throws(RPCError) -> Visibility? {
        switch value {
        case nil: return nil
        case "public"?: return .public
        case "mention"?: return .mention
        default: throw .invalidParams("visibility must be \"public\" or \"mention\"")
        }
    }

    /// Checks a `mentions` param's URLs.
    static func checkMentions(_ mentions: [String: String]) throws(RPCError) {
        for (nick, url) in mentions.sorted(by: { $0.key < $1.key }) {
            try EngineAccount.checkHTTP(url, "mentions.\(nick)")
        }
    }

    /// A future ISO 8601 date param (`poll.endsAt`, `scheduledAt`).
    static func futureDate(_ text: String, _ name: String, now: Date = Date()) throws(RPCError) -> Date {
        guard let date = OrgTimestamp(text).sortInstant ?? (try? Date(text, strategy: .iso8601)), date > now else {
            throw .invalidParams("\(name) must be a future ISO 8601 date")
        }
        return date
    }
}
