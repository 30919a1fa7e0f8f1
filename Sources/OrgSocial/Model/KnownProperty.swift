/// The post properties this library reads (spec §6), each with a bit of ``Set``: a post notes which of
/// them have a value when it is read, so that asking for an absent one (most are absent from most
/// posts) does not search the drawer.
package enum KnownProperty: Int, CaseIterable, Sendable {
    case lang, tags, client, mood, replyTo, include, pollEnd, pollOption, group, visibility, migration, bot

    /// The property's name as the spec writes it.
    var name: StaticString {
        switch self {
        case .lang: "LANG"
        case .tags: "TAGS"
        case .client: "CLIENT"
        case .mood: "MOOD"
        case .replyTo: "REPLY_TO"
        case .include: "INCLUDE"
        case .pollEnd: "POLL_END"
        case .pollOption: "POLL_OPTION"
        case .group: "GROUP"
        case .visibility: "VISIBILITY"
        case .migration: "MIGRATION"
        case .bot: "BOT"
        }
    }

    /// ``name``'s bytes: those of a string literal, valid for the program's life.
    var nameBytes: UnsafeBufferPointer<UInt8> {
        let name = name
        assert(name.hasPointerRepresentation)
        return UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
    }

    /// The known property named by the bytes `name` (ASCII case ignored), if any.
    init?(named name: UnsafeBufferPointer<UInt8>) {
        guard let first = name.first else { return nil }
        // The first letter leaves at most two candidates, whose names are then compared in full.
        let candidates: (KnownProperty, KnownProperty?)
        switch asciiUppercased(first) {
        case UInt8(ascii: "L"): candidates = (.lang, nil)
        case UInt8(ascii: "T"): candidates = (.tags, nil)
        case UInt8(ascii: "C"): candidates = (.client, nil)
        case UInt8(ascii: "M"): candidates = (.mood, .migration)
        case UInt8(ascii: "R"): candidates = (.replyTo, nil)
        case UInt8(ascii: "I"): candidates = (.include, nil)
        case UInt8(ascii: "P"): candidates = (.pollEnd, .pollOption)
        case UInt8(ascii: "G"): candidates = (.group, nil)
        case UInt8(ascii: "V"): candidates = (.visibility, nil)
        case UInt8(ascii: "B"): candidates = (.bot, nil)
        default: return nil
        }
        if candidates.0.isNamed(name) {
            self = candidates.0
        } else if let second = candidates.1, second.isNamed(name) {
            self = second
        } else {
            return nil
        }
    }

    /// The known property named `name` (ASCII case ignored), if any.
    init?(named name: String) {
        var name = name  // `withUTF8` copies only a string that is not stored as contiguous UTF-8.
        guard let property = name.withUTF8({ KnownProperty(named: $0) }) else { return nil }
        self = property
    }

    /// Whether `bytes` spell this property's name, ASCII case ignored.
    private func isNamed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let name = nameBytes
        return name.count == bytes.count && zip(name, bytes).allSatisfy { $0 == asciiUppercased($1) }
    }

    /// Some of the known properties, one bit each.
    struct Set: Sendable, Equatable {
        private var bits: UInt16 = 0

        /// No property.
        init() {}

        /// Whether the set is empty.
        var isEmpty: Bool { bits == 0 }

        /// Whether `property` is in the set.
        func contains(_ property: KnownProperty) -> Bool { bits & 1 << property.rawValue != 0 }

        /// Adds `property`.
        mutating func insert(_ property: KnownProperty) { bits |= 1 << property.rawValue }
    }
}

/// `byte` with an ASCII lower-case letter made upper case.
private func asciiUppercased(_ byte: UInt8) -> UInt8 {
    byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 0x20 : byte
}
