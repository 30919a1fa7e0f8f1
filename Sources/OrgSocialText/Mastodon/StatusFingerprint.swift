/// A comparable form of a status's text, the same for the plain text a client sent and the HTML `content`
/// the server rendered from it, so a bridge that lost track of a status (a lost answer, a lost state file)
/// can recognise it among the account's statuses.
///
/// Both sides keep only their visible characters without white space: HTML tags are dropped, character
/// references decoded, and `@user@domain` mentions shortened to `@user` (the server's HTML shows only the
/// user name).
package enum StatusFingerprint {
    /// The fingerprint of the text a client posts.
    /// - Parameter text: the `status` text.
    /// - Returns: its fingerprint.
    package static func ofText(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        var previous: Character?
        while let character = rest.first {
            rest = rest.dropFirst()
            if character == "@", previous.map({ $0.isWhitespace || "([{".contains($0) }) ?? true {
                let user = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                let after = rest.dropFirst(user.count)
                if !user.isEmpty, after.first == "@" {
                    let domain = after.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
                    if domain.contains(".") {
                        result += "@" + user
                        rest = after.dropFirst(1 + domain.count)
                        previous = domain.last
                        continue
                    }
                }
            }
            if !character.isWhitespace { result.append(character) }
            previous = character
        }
        return result
    }

    /// The fingerprint of a status's HTML `content`.
    /// - Parameter html: the content.
    /// - Returns: its fingerprint.
    package static func ofHTML(_ html: String) -> String {
        var result = ""
        for token in HTMLTokenizer.tokens(html) {
            guard case .text(let text) = token else { continue }
            for character in text where !character.isWhitespace { result.append(character) }
        }
        return result
    }
}
