package import Foundation
package import HTTPCore

/// The fake host's reading of a `multipart/form-data` body (the node's `MultipartFormParser` is internal to
/// FeedHosting, which the client and CLI tests do not depend on), to answer and check what the client sent.
package enum MultipartParser {
    /// One part.
    package struct Part: Sendable, Equatable {
        package var name: String
        package var filename: String?
        package var contentType: String?
        package var bytes: [UInt8]

        /// A part with these fields.
        package init(name: String, filename: String?, contentType: String?, bytes: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    /// The parts of a request's body, or `nil` when it is not `multipart/form-data` with a boundary.
    package static func parse(_ request: HTTPRequest) -> [Part]? {
        guard let contentType = request.headers["Content-Type"], contentType.hasPrefix("multipart/form-data"),
            let range = contentType.range(of: "boundary=")
        else { return nil }
        return parse(request.body, boundary: String(contentType[range.upperBound...]))
    }

    /// The parts of `body` separated by `boundary`, or `nil` when it is malformed.
    package static func parse(_ body: [UInt8], boundary: String) -> [Part]? {
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [Part] = []
        var starts = occurrences(of: delimiter, in: body)
        guard starts.count >= 2 else { return nil }
        let closing = starts.removeLast()
        guard body[(closing + delimiter.count)...].starts(with: Array("--".utf8)) else { return nil }
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : closing
            var chunk = Array(body[(start + delimiter.count)..<end])
            guard chunk.starts(with: [13, 10]), chunk.suffix(2) == [13, 10] else { return nil }
            chunk = Array(chunk.dropFirst(2).dropLast(2))
            guard let split = occurrences(of: [13, 10, 13, 10], in: chunk).first else { return nil }
            let head = String(decoding: chunk[..<split], as: UTF8.self)
            let content = Array(chunk[(split + 4)...])
            var part = Part(name: "", filename: nil, contentType: nil, bytes: content)
            for line in head.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = value(of: "name", in: line) ?? ""
                    part.filename = value(of: "filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = String(line.dropFirst("content-type:".count)).trimmingCharacters(
                        in: .whitespaces)
                }
            }
            parts.append(part)
        }
        return parts
    }

    private static func value(of key: String, in line: String) -> String? {
        guard let range = line.range(of: "; \(key)=\"") else { return nil }
        let rest = line[range.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    private static func occurrences(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard haystack.count >= needle.count else { return [] }
        var result: [Int] = []
        var index = 0
        while index <= haystack.count - needle.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) {
                result.append(index)
                index += needle.count
            } else {
                index += 1
            }
        }
        return result
    }
}
