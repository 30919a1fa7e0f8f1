/// One part of a `multipart/form-data` body (RFC 7578).
package struct FormPart: Sendable, Equatable {
    /// The `name` of its `Content-Disposition`.
    package var name: String
    /// The `filename`, for file parts.
    package var filename: String?
    /// The part's `Content-Type`, if given.
    package var contentType: String?
    /// The part's content.
    package var bytes: [UInt8]

    /// A part with these fields.
    package init(name: String, filename: String?, contentType: String?, bytes: [UInt8]) {
        self.name = name
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }
}

/// A parser for `multipart/form-data` bodies (RFC 7578, with the framing of RFC 2046, section 5.1.1).
///
/// Each part starts after a delimiter line `--<boundary>` and ends at the CRLF before the next one; the
/// final delimiter is `--<boundary>--`. Text before the first delimiter (the preamble) and after the
/// last (the epilogue) is ignored, as is white space after a delimiter. Bare LF line breaks are accepted
/// too, since some hand-written clients send them. Part headers other than `Content-Disposition` and
/// `Content-Type` are ignored, and so are parts without a `name`.
package enum MultipartFormParser {
    /// The parts of a `multipart/form-data` request, or `nil` when its `Content-Type` is another or has no
    /// `boundary`, or its body is not well-formed.
    package static func parse(_ request: HTTPRequest) -> [FormPart]? {
        let contentType = HeaderParameters(request.headers["Content-Type"] ?? "")
        guard contentType.value == "multipart/form-data", let boundary = contentType.parameters["boundary"] else {
            return nil
        }
        return parse(request.body, boundary: boundary)
    }

    /// Splits `body` into its parts.
    ///
    /// - Parameters:
    ///   - body: The request body.
    ///   - boundary: The `boundary` parameter of the request's `Content-Type`.
    /// - Returns: The parts in order, or `nil` if the body is not well-formed (no opening delimiter, a
    ///   part without a header block, or no closing delimiter).
    package static func parse(_ body: [UInt8], boundary: String) -> [FormPart]? {
        guard !boundary.isEmpty, boundary.utf8.count <= 200 else { return nil }
        let delimiter = Array("--\(boundary)".utf8)
        // The first delimiter: at the very start, or at the start of a line of the preamble.
        var position: Int
        if body.starts(with: delimiter) {
            position = delimiter.count
        } else if let found = find(Array("\n".utf8) + delimiter, in: body, from: 0) {
            position = found + 1 + delimiter.count
        } else {
            return nil
        }
        var parts: [FormPart] = []
        while true {
            // After a delimiter: "--" closes the body; otherwise transport padding and a line break.
            if body[position...].starts(with: Array("--".utf8)) {
                return parts
            }
            while position < body.count, body[position] == UInt8(ascii: " ") || body[position] == UInt8(ascii: "\t") {
                position += 1
            }
            if body[position...].starts(with: Array("\r\n".utf8)) {
                position += 2
            } else if body[position...].starts(with: Array("\n".utf8)) {
                position += 1
            } else {
                return nil
            }
            // The part runs to the next line that starts with the delimiter.
            guard let next = nextDelimiter(delimiter, in: body, from: position) else { return nil }
            var end = next
            if end > position, body[end - 1] == UInt8(ascii: "\r") {
                end -= 1
            }
            guard let part = parsePart(body[position..<max(position, end)]) else { return nil }
            if let part {
                parts.append(part)
            }
            position = next + 1 + delimiter.count
        }
    }

    /// The index of the line break before the next real delimiter line: `\n--<boundary>` followed by
    /// `--`, white space or a line break (so a longer boundary that starts the same way is not taken).
    private static func nextDelimiter(_ delimiter: [UInt8], in body: [UInt8], from start: Int) -> Int? {
        let pattern = Array("\n".utf8) + delimiter
        var from = start
        while let found = find(pattern, in: body, from: from) {
            let after = found + pattern.count
            if after == body.count {
                return found
            }
            switch body[after] {
            case UInt8(ascii: "-"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                return found
            default:
                from = found + 1
            }
        }
        return nil
    }

    /// Reads one part's headers and content; `.some(nil)` for a part to skip, `nil` if malformed.
    private static func parsePart(_ bytes: ArraySlice<UInt8>) -> FormPart?? {
        let headerEnd: Int
        let contentStart: Int
        if let crlf = find(Array("\r\n\r\n".utf8), in: bytes) {
            headerEnd = crlf
            contentStart = crlf + 4
        } else if let lf = find(Array("\n\n".utf8), in: bytes) {
            headerEnd = lf
            contentStart = lf + 2
        } else if bytes.starts(with: Array("\r\n".utf8)) {
            // No headers at all.
            headerEnd = bytes.startIndex
            contentStart = bytes.startIndex + 2
        } else {
            return nil
        }
        var disposition: HeaderParameters?
        var contentType: String?
        let headerText = String(decoding: bytes[bytes.startIndex..<headerEnd], as: UTF8.self)
        for line in headerText.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpacesAndLowercasing()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces()
            if name == "content-disposition" {
                disposition = HeaderParameters(value)
            } else if name == "content-type" {
                contentType = value
            }
        }
        guard let disposition, let name = disposition.parameters["name"] else { return .some(nil) }
        return .some(
            FormPart(
                name: name,
                filename: disposition.parameters["filename"],
                contentType: contentType,
                bytes: Array(bytes[min(contentStart, bytes.endIndex)...])
            ))
    }

    /// The index where `pattern` first occurs in `bytes` at or after `start`.
    static func find<Bytes: RandomAccessCollection<UInt8>>(
        _ pattern: [UInt8],
        in bytes: Bytes,
        from start: Int? = nil
    ) -> Int? where Bytes.Index == Int {
        guard let first = pattern.first else { return start ?? bytes.startIndex }
        var index = start ?? bytes.startIndex
        let last = bytes.endIndex - pattern.count
        while index <= last {
            guard let candidate = bytes[index...last].firstIndex(of: first) else { return nil }
            if bytes[candidate..<(candidate + pattern.count)].elementsEqual(pattern) {
                return candidate
            }
            index = candidate + 1
        }
        return nil
    }
}

extension Substring {
    fileprivate func trimmingSpacesAndLowercasing() -> String {
        String(self).trimmingSpaces().lowercased()
    }
}
