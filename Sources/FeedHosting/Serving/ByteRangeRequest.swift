import HTTPCore

/// What a `Range` header asks of a representation of a known length (RFC 9110, section 14).
///
/// Only single ranges are served. A header with several ranges is answered with the whole
/// representation (200), which RFC 9110 allows ("a server MAY ignore the Range header field"); so is a
/// header that does not parse or uses another unit.
enum ByteRangeRequest: Sendable, Equatable {
    /// Serve the whole representation (no usable `Range`).
    case whole
    /// Serve bytes `lowerBound...upperBound` (inclusive) with 206.
    case partial(ClosedRange<Int>)
    /// Nothing satisfiable: answer 416 with `Content-Range: bytes */<length>`.
    case unsatisfiable

    /// Interprets `header` for a representation of `length` bytes.
    ///
    /// - Parameters:
    ///   - header: The `Range` value: `bytes=a-b`, `bytes=a-` or `bytes=-n`.
    ///   - length: The representation's length.
    init(header: String, length: Int) {
        let text = header.trimmingSpaces()
        guard text.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let specs = text.dropFirst("bytes=".count).split(separator: ",", omittingEmptySubsequences: false)
        guard specs.count == 1 else {
            self = .whole
            return
        }
        let spec = String(specs[0]).trimmingSpaces()
        guard let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash]
        let last = spec[spec.index(after: dash)...]
        func number(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
            else { return nil }
            // All digits but too large for Int: clamp, so "bytes=0-99999999999999999999" still works.
            return Int(digits) ?? Int.max
        }
        if first.isEmpty {
            // Suffix range: the last n bytes.
            guard let suffix = number(last) else {
                self = .whole
                return
            }
            guard suffix > 0, length > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(max(0, length - suffix)...(length - 1))
            return
        }
        guard let start = number(first) else {
            self = .whole
            return
        }
        let end: Int
        if last.isEmpty {
            end = length - 1
        } else {
            guard let requested = number(last), requested >= start else {
                self = .whole
                return
            }
            end = min(requested, length - 1)
        }
        guard start < length else {
            self = .unsatisfiable
            return
        }
        self = .partial(start...end)
    }
}

/// Which content codings a client accepts, as far as gzip is concerned (RFC 9110, section 12.5.3).
enum AcceptEncoding {
    /// Whether `header` accepts gzip: `gzip` or `x-gzip` with a non-zero weight, or `*` with a non-zero
    /// weight when gzip is not listed.
    static func allowsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        var gzipWeight: Double?
        var wildcardWeight: Double?
        for member in header.split(separator: ",") {
            let parts = member.split(separator: ";")
            guard let coding = parts.first?.trimmingCharacters(in: " \t").lowercased() else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.trimmingCharacters(in: " \t")
                if pair.lowercased().hasPrefix("q=") {
                    weight = Double(pair.dropFirst(2)) ?? 0
                }
            }
            switch coding {
            case "gzip", "x-gzip": gzipWeight = max(gzipWeight ?? 0, weight)
            case "*": wildcardWeight = weight
            default: break
            }
        }
        if let gzipWeight {
            return gzipWeight > 0
        }
        return (wildcardWeight ?? 0) > 0
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in characters: String) -> String {
        var text = self
        while let first = text.first, characters.contains(first) { text.removeFirst() }
        while let last = text.last, characters.contains(last) { text.removeLast() }
        return String(text)
    }
}
