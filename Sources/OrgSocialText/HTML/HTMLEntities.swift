/// HTML character references: named (`&amp;`, `&eacute;`, `&hellip;` …) and numeric (`&#233;`, `&#xE9;`).
///
/// The named table holds what sanitised fediverse HTML uses: the five XML ones, all of Latin-1, the Greek
/// letters and the common typographic marks. An unknown name, or a reference without its `;` (except the
/// legacy `&amp` `&lt` `&gt` `&quot` `&nbsp`), stays as written; a numeric reference to no character (0,
/// a surrogate, beyond U+10FFFF) becomes U+FFFD, as browsers do.
enum HTMLEntities {
    /// Decodes every character reference in `text`; the text itself (no copy) when it has no `&`.
    static func decode(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        return decode(text[...])
    }

    /// Decodes every character reference in `text`.
    static func decode(_ text: Substring) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return String(text) }
        var output = ""
        output.reserveCapacity(text.utf8.count)
        var rest = text
        while let amp = ampersand(in: rest) {
            output += rest[..<amp]
            let after = rest[rest.utf8.index(after: amp)...]  // `&` is one byte
            if let (decoded, next) = reference(after) {
                output += decoded
                rest = after[next...]
            } else {
                output += "&"
                rest = after
            }
        }
        output += rest
        return output
    }

    /// The first `&` of `text` that is a character of its own, found by a byte search. Only a non-ASCII
    /// scalar right before it (a prepending mark) could join it into another character; that case is
    /// checked on characters. An `&` joined with a mark after it needs no check: no reference starts
    /// with a mark, so it stays as written either way.
    private static func ampersand(in text: Substring) -> Substring.Index? {
        let bytes = text.utf8
        var from = bytes.startIndex
        while let amp = bytes[from...].firstIndex(of: UInt8(ascii: "&")) {
            if amp == bytes.startIndex || bytes[bytes.index(before: amp)] < 0x80 { return amp }
            if let last = text[..<amp].last, (String(last) + "&").count == 2 { return amp }
            from = bytes.index(after: amp)
        }
        return nil
    }

    /// The character a reference after `&` stands for, and where the text continues.
    private static func reference(_ text: Substring) -> (String, Substring.Index)? {
        if text.first == "#" {
            return numeric(text.dropFirst())
        }
        var end = text.startIndex
        var length = 0
        while end < text.endIndex, length < 32, let ascii = text[end].asciiValue,
            (ascii >= 0x30 && ascii <= 0x39) || (ascii | 0x20 >= 0x61 && ascii | 0x20 <= 0x7A)
        {
            end = text.index(after: end)
            length += 1
        }
        guard length > 0 else { return nil }
        let name = String(text[..<end])
        if end < text.endIndex, text[end] == ";", let value = named[name] {
            return (value, text.index(after: end))
        }
        for (legacyName, value) in legacy where name.hasPrefix(legacyName) {
            return (value, text.index(text.startIndex, offsetBy: legacyName.count))
        }
        return nil
    }

    /// `&#NNN;` / `&#xHH;` (the `;` optional).
    private static func numeric(_ text: Substring) -> (String, Substring.Index)? {
        var index = text.startIndex
        var radix: UInt32 = 10
        if index < text.endIndex, text[index] == "x" || text[index] == "X" {
            radix = 16
            index = text.index(after: index)
        }
        var value: UInt32 = 0
        var digits = 0
        while index < text.endIndex, let digit = text[index].hexDigitValue, UInt32(digit) < radix {
            value = min(value * radix + UInt32(digit), 0x11_0000)
            digits += 1
            index = text.index(after: index)
        }
        guard digits > 0 else { return nil }
        if index < text.endIndex, text[index] == ";" {
            index = text.index(after: index)
        }
        let scalar = value == 0 ? nil : Unicode.Scalar(value)
        return (String(Character(scalar ?? "\u{FFFD}")), index)
    }

    /// References browsers accept without the closing `;`.
    private static let legacy: [(String, String)] = [
        ("amp", "&"), ("lt", "<"), ("gt", ">"), ("quot", "\""), ("nbsp", "\u{A0}"), ("AMP", "&"), ("LT", "<"),
        ("GT", ">"),
    ]

    /// Named references, name → text.
    static let named: [String: String] = {
        var table: [String: String] = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "AMP": "&", "LT": "<", "GT": ">",
            "QUOT": "\"", "hellip": "…", "mdash": "—", "ndash": "–", "lsquo": "‘", "rsquo": "’", "sbquo": "‚",
            "ldquo": "“", "rdquo": "”", "bdquo": "„", "lsaquo": "‹", "rsaquo": "›", "bull": "•", "prime": "′",
            "Prime": "″", "dagger": "†", "Dagger": "‡", "permil": "‰", "euro": "€", "trade": "™", "larr": "←",
            "rarr": "→", "uarr": "↑", "darr": "↓", "harr": "↔", "lArr": "⇐", "rArr": "⇒", "hArr": "⇔",
            "infin": "∞", "ne": "≠", "le": "≤", "ge": "≥", "asymp": "≈", "minus": "−", "sum": "∑", "prod": "∏",
            "radic": "√", "part": "∂", "forall": "∀", "exist": "∃", "empty": "∅", "nabla": "∇", "isin": "∈",
            "notin": "∉", "and": "∧", "or": "∨", "cap": "∩", "cup": "∪", "int": "∫", "there4": "∴", "sim": "∼",
            "equiv": "≡", "sub": "⊂", "sup": "⊃", "oplus": "⊕", "otimes": "⊗", "perp": "⊥", "sdot": "⋅",
            "loz": "◊", "spades": "♠", "clubs": "♣", "hearts": "♥", "diams": "♦", "check": "✓", "cross": "✗",
            "star": "☆", "starf": "★", "ensp": "\u{2002}", "emsp": "\u{2003}", "thinsp": "\u{2009}",
            "zwnj": "\u{200C}", "zwj": "\u{200D}", "lrm": "\u{200E}", "rlm": "\u{200F}", "OElig": "Œ",
            "oelig": "œ", "Scaron": "Š", "scaron": "š", "Yuml": "Ÿ", "fnof": "ƒ", "circ": "ˆ", "tilde": "˜",
            "oline": "‾", "frasl": "⁄", "nbsp": "\u{A0}", "NewLine": "\n", "Tab": "\t", "colon": ":",
            "comma": ",", "period": ".", "excl": "!", "quest": "?", "num": "#", "lpar": "(", "rpar": ")",
            "lsqb": "[", "rsqb": "]", "lbrack": "[", "rbrack": "]", "lcub": "{", "rcub": "}", "ast": "*",
            "plus": "+", "equals": "=", "sol": "/", "bsol": "\\", "vert": "|", "lowbar": "_", "grave": "`",
            "Hat": "^", "dollar": "$", "percnt": "%", "commat": "@", "semi": ";", "hyphen": "‐", "dash": "‐",
        ]
        // Latin-1, U+00A0…U+00FF, in code point order.
        let latin1 =
            ("nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 "
            + "sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc "
            + "Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve "
            + "Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute "
            + "acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde "
            + "ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml")
            .split(separator: " ")
        for (offset, name) in latin1.enumerated() {
            table[String(name)] = Unicode.Scalar(0xA0 + UInt32(offset)).map { String(Character($0)) }
        }
        // Greek capitals U+0391… (U+03A2 unassigned) and small letters U+03B1… (final sigma at U+03C2).
        let capitals =
            "Alpha Beta Gamma Delta Epsilon Zeta Eta Theta Iota Kappa Lambda Mu Nu Xi Omicron Pi Rho - Sigma Tau "
            + "Upsilon Phi Chi Psi Omega"
        let smalls =
            "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigmaf sigma "
            + "tau upsilon phi chi psi omega"
        for (start, names) in [(UInt32(0x391), capitals), (UInt32(0x3B1), smalls)] {
            for (offset, name) in names.split(separator: " ").enumerated() where name != "-" {
                table[String(name)] = Unicode.Scalar(start + UInt32(offset)).map { String(Character($0)) }
            }
        }
        return table
    }()
}
