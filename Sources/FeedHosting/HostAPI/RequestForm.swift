import Foundation
import HTTPCore

/// The fields of a Host API request body, whatever its encoding: JSON object, URL-encoded form, or
/// `multipart/form-data` (the reference host accepts all three through its parsers).
///
/// Only string values of a JSON object become fields; numbers, booleans and nested values are ignored,
/// so a request with `{"nick": 5}` is answered as if `nick` were missing.
struct RequestForm: Sendable {
    /// Text fields by name (the first value wins). Multipart parts without a file name are fields too.
    var fields: [String: String] = [:]
    /// Multipart parts by name (the first wins), with or without a file name.
    var parts: [String: FormPart] = [:]

    /// Reads the body of `request` according to its `Content-Type`; a body without one is tried as JSON.
    /// A body that does not parse gives an empty form, so each handler answers with its "is required"
    /// message.
    init(_ request: HTTPRequest) {
        let contentType = HeaderParameters(request.headers["Content-Type"] ?? "")
        switch contentType.value {
        case "multipart/form-data":
            guard let boundary = contentType.parameters["boundary"],
                let parsed = MultipartFormParser.parse(request.body, boundary: boundary)
            else { return }
            for part in parsed {
                if parts[part.name] == nil {
                    parts[part.name] = part
                }
                if part.filename == nil, fields[part.name] == nil {
                    fields[part.name] = String(decoding: part.bytes, as: UTF8.self)
                }
            }
        case "application/x-www-form-urlencoded":
            for pair in request.body.split(separator: UInt8(ascii: "&")) {
                let pieces = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
                let name = Self.formDecoded(pieces[0])
                let value = pieces.count > 1 ? Self.formDecoded(pieces[1]) : ""
                if fields[name] == nil {
                    fields[name] = value
                }
            }
        default:
            guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any] else {
                return
            }
            for (name, value) in object {
                if let text = value as? String {
                    fields[name] = text
                }
            }
        }
    }

    /// Decodes `application/x-www-form-urlencoded` text: `+` is a space, `%HH` a byte.
    static func formDecoded(_ bytes: ArraySlice<UInt8>) -> String {
        RequestTarget.percentDecoded(bytes, plusIsSpace: true)
    }
}
