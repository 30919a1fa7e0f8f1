import Foundation

/// Server text made safe to print or store: what a server answers (an error message, the start of a body)
/// reaches error output, logs and the bridge's state file, and a server that echoes the request would put
/// the credentials in them.
///
/// Secrets known to the caller (the client's own access token) are replaced wherever they appear, and so
/// is anything that looks like a credential: the value after `Bearer`, after a credential's name
/// (`access_token`, `refresh_token`, `client_secret`, `password`, `app_password`, `accessJwt`, `token`, …,
/// as `name=value`, `name: value` or `"name": "value"`), and an app password's `xxxx-xxxx-xxxx-xxxx`.
/// Line breaks and other control characters become spaces, and the result is capped at
/// ``maximumLength`` characters.
package enum SecretRedaction {
    /// What stands in for a secret.
    package static let placeholder = "[redacted]"
    /// The longest text kept, in characters; longer text is cut and says how much was left out.
    package static let maximumLength = 300
    /// How much of a longer text is searched for secrets before it is cut (the cut keeps less).
    private static let searchedLength = 4096

    /// The patterns of credentials, compiled on each use (a `Regex` is not `Sendable`, so it cannot be
    /// kept in a static; this runs only on error paths). They are string patterns; one that does not
    /// compile is left out, which ``patternCount`` lets a test see.
    private static var patterns: [Regex<AnyRegexOutput>] {
        patternSources.compactMap { try? Regex($0).ignoresCase() }
    }

    /// Each pattern's first group is kept (the credential's name, the `Bearer `), the rest replaced.
    private static let patternSources = [
        // The value after a credential's name: `name=value`, `name: value`, `"name":"value"`.
        #"(\b(?:access_token|refresh_token|id_token|client_secret|app_password|apppassword|password|passwd|secret|accessjwt|refreshjwt|api_key|apikey|token)(?:"|')?\s*[:=]\s*(?:"|')?)[^\s"'&,;}]+"#,
        // The value after `Bearer` or `Basic` (an echoed `Authorization` header).
        #"(\b(?:bearer|basic)\s{1,8})[A-Za-z0-9._~+/=-]+"#,
        // A Bluesky app password.
        #"()\b[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}-[a-z0-9]{4}\b"#,
    ]

    /// How many credential patterns are in use (all of them, unless one failed to compile).
    package static var patternCount: Int { patterns.count }

    /// `text` with every secret replaced by ``placeholder``, on one line, and at most ``maximumLength``
    /// characters long.
    /// - Parameters:
    ///   - text: what a server said.
    ///   - secrets: credentials the caller holds, replaced wherever they appear (empty ones are ignored).
    /// - Returns: the text to print or store.
    package static func redacted(_ text: String, secrets: [String] = []) -> String {
        var result = String(text.prefix(searchedLength))
        for secret in secrets where secret.count >= 4 {
            result = result.replacingOccurrences(of: secret, with: placeholder)
        }
        for pattern in patterns {
            result = result.replacing(pattern) { match in
                (match.output.count > 1 ? match.output[1].substring.map(String.init) ?? "" : "") + placeholder
            }
        }
        result = String(
            result.unicodeScalars.map { scalar -> Character in
                scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
                    ? " " : Character(scalar)
            })
        let total = text.count
        guard total > maximumLength || result.count > maximumLength else { return result }
        return String(result.prefix(maximumLength)) + "… (\(total) characters in all)"
    }
}
