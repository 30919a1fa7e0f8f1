import Foundation

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

    /// The form two nicks are compared in for uniqueness: NFKC, case-folded, NFKC again, so that `ana`,
    /// `ANA` and the full-width `ａｎａ` are one nick (Unicode TR 15 and TR 36, "confusables" aside).
    /// Nicks are stored and served as given; only a new nick that folds to a taken one is refused.
    ///
    /// - Parameter nick: A nickname (or folder name).
    /// - Returns: Its folded form.
    static func uniquenessKey(_ nick: String) -> String {
        nick.precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive], locale: nil)
            .precomposedStringWithCompatibilityMapping
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
