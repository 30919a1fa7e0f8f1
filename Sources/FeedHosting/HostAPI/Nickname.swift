/// The Org Social Host's nickname rules (spec §11): 3 to 50 characters, each a letter, a digit, `-` or
/// `_`, where "letter or digit" is Python's `str.isalnum`, so letters and digits of any script count.
///
/// Lengths count Unicode scalars, as Python counts a `str`.
enum Nickname {
    /// The reference host's message for a nickname that breaks a rule, or `nil` if `nick` is valid.
    ///
    /// - Parameter nick: The requested nickname.
    /// - Returns: `Nickname is required`, `Nickname must be at least 3 characters`, `Nickname must be at
    ///   most 50 characters`, or `Nickname can only contain letters, numbers, hyphens, and underscores`.
    static func problem(with nick: String) -> String? {
        let scalars = nick.unicodeScalars
        if scalars.isEmpty {
            return "Nickname is required"
        }
        if scalars.count < 3 {
            return "Nickname must be at least 3 characters"
        }
        if scalars.count > 50 {
            return "Nickname must be at most 50 characters"
        }
        guard scalars.allSatisfy({ isAlphanumeric($0) || $0 == "-" || $0 == "_" }) else {
            return "Nickname can only contain letters, numbers, hyphens, and underscores"
        }
        return nil
    }

    /// Python's `str.isalnum` for one character: a letter (general category L*) or a character with a
    /// numeric type (decimal, digit or numeric).
    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return true
        default:
            return scalar.properties.numericType != nil
        }
    }
}
