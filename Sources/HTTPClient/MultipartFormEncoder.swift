import Foundation

/// Encodes a `multipart/form-data` body (RFC 7578), as the Org Social Host's `/upload` expects it.
///
/// ```swift
/// var form = MultipartFormEncoder()
/// form.addField(name: "vfile", value: vfile.absoluteString)
/// form.addFile(name: "file", filename: "social.org", contentType: "text/plain; charset=utf-8", bytes: bytes)
/// request.headers["Content-Type"] = form.contentType
/// request.body = form.encoded()
/// ```
///
/// Lines end with CRLF. The boundary is random and is checked not to occur in any part.
package struct MultipartFormEncoder: Sendable {
    /// One part of the form.
    package struct Part: Sendable, Hashable {
        /// The form field's name.
        package var name: String
        /// The file name, for a file part.
        package var filename: String?
        /// The part's `Content-Type`, if any.
        package var contentType: String?
        /// The part's content.
        package var bytes: [UInt8]
    }

    /// The parts, in order.
    package private(set) var parts: [Part] = []
    /// The boundary between parts.
    package private(set) var boundary: String

    /// Makes an empty form with a random boundary.
    package init() {
        boundary = Self.makeBoundary()
    }

    /// Adds a text field.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - value: its value.
    package mutating func addField(name: String, value: String) {
        add(Part(name: name, filename: nil, contentType: nil, bytes: Array(value.utf8)))
    }

    /// Adds a file.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - filename: the file name sent with it.
    ///   - contentType: the file's type.
    ///   - bytes: the file's content.
    package mutating func addFile(name: String, filename: String, contentType: String, bytes: [UInt8]) {
        add(Part(name: name, filename: filename, contentType: contentType, bytes: bytes))
    }

    /// The request's `Content-Type` header: `multipart/form-data; boundary=…`.
    package var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The encoded body.
    package func encoded() -> [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            head += "\r\n"
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            head += "\r\n"
            body += Array(head.utf8)
            body += part.bytes
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    private mutating func add(_ part: Part) {
        parts.append(part)
        while parts.contains(where: { Self.contains($0.bytes, Array(boundary.utf8)) }) {
            boundary = Self.makeBoundary()
        }
    }

    private static func makeBoundary() -> String {
        "orgsocial-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    /// A name or file name inside double quotes: quotes and line breaks are percent-encoded, as browsers do.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
