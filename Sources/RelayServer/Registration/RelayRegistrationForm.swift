import Foundation
import HTTPCore

/// The `feed` field of a `POST /feeds/` body, read the way Django REST framework's three parsers read it
/// (`relay-api.md` §2.3): JSON, form-encoded, or multipart.
enum RelayRegistrationForm: Sendable, Equatable {
    /// No `feed` field (or JSON `null`, or an empty body).
    case missing
    /// A string `feed`, not yet stripped.
    case feed(String)
    /// A `feed` that is not a string (a JSON number, list, object or boolean, or an uploaded file).
    case notAString
    /// The body could not be read: a DRF error `{"detail": …}` with this status.
    case rejected(status: HTTPStatus, detail: String)

    /// Reads a request's body.
    ///
    /// As DRF does: an empty body is an empty form whatever its type; otherwise the `Content-Type`
    /// chooses the parser, and any other type (or none) is `415 Unsupported media type "<type>" in request.`
    ///
    /// - Parameter request: The `POST` request.
    init(_ request: HTTPRequest) {
        guard !request.body.isEmpty else {
            self = .missing
            return
        }
        let contentType = request.headers["Content-Type"] ?? ""
        let parameters = contentType.split(separator: ";")
        let mediaType = parameters.first?.trimmed.lowercased() ?? ""
        switch mediaType {
        case "application/json":
            do {
                let value = try PythonJSONScanner.parse(request.body)
                switch value.member("feed") {
                case nil, .null?: self = .missing
                case .string(let feed)?: self = .feed(feed)
                default: self = .notAString
                }
            } catch {
                self = .rejected(status: .badRequest, detail: "JSON parse error - \(error.description)")
            }
        case "application/x-www-form-urlencoded":
            let form = String(decoding: request.body, as: UTF8.self).replacingOccurrences(of: "#", with: "%23")
            if let feed = HTTPRequest(method: .post, target: "/?" + form).queryItems.last(where: { $0.name == "feed" })
            {
                self = .feed(feed.value)
            } else {
                self = .missing
            }
        case "multipart/form-data":
            let boundary = parameters.dropFirst().lazy.compactMap { parameter -> String? in
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, pair[0].trimmed.lowercased() == "boundary" else { return nil }
                var value = pair[1].trimmed
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                return value
            }.first
            guard let boundary, !boundary.isEmpty else {
                self = .rejected(
                    status: .badRequest, detail: "Multipart form parse error - Invalid boundary in multipart: None")
                return
            }
            guard let fields = MultipartFields.parse(request.body, boundary: boundary) else {
                self = .rejected(status: .badRequest, detail: "Multipart form parse error - malformed multipart body")
                return
            }
            switch fields.last(where: { $0.name == "feed" }) {
            case nil: self = .missing
            case let field? where field.isFile: self = .notAString
            case let field?: self = .feed(field.value)
            }
        default:
            self = .rejected(
                status: .unsupportedMediaType, detail: "Unsupported media type \"\(contentType)\" in request.")
        }
    }
}

/// The `feed`-relevant part of a `multipart/form-data` body: each part's name, text and whether it is a
/// file (RFC 7578).
struct MultipartFields: Sendable, Equatable {
    /// The `name` of the part's `Content-Disposition`.
    let name: String
    /// The part's content as UTF-8 text.
    let value: String
    /// Whether the part carried a `filename` (DRF puts those in `request.FILES`).
    let isFile: Bool

    /// Splits a body on `--<boundary>` lines; `nil` when there is no opening or closing delimiter, or a
    /// part has no header block. Parts without a name are skipped.
    static func parse(_ body: [UInt8], boundary: String) -> [MultipartFields]? {
        let text = String(decoding: body, as: UTF8.self)
        let delimiter = "--" + boundary
        // "\r\n" is one Character, so this splits CRLF and bare LF line ends alike.
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let first = lines.firstIndex(where: { $0 == delimiter || $0.hasPrefix(delimiter + " ") }) else {
            return nil
        }
        lines.removeFirst(first + 1)
        var fields: [MultipartFields] = []
        var current: [Substring] = []
        for line in lines {
            let isClosing = line.hasPrefix(delimiter + "--")
            if isClosing || line == delimiter {
                guard let field = field(from: current) else { return nil }
                if let field = field {
                    fields.append(field)
                }
                current = []
                if isClosing {
                    return fields
                }
            } else {
                current.append(line)
            }
        }
        return nil
    }

    /// One part: `nil` if it has no blank line after its headers, `.some(nil)` if it has no name.
    private static func field(from lines: [Substring]) -> MultipartFields?? {
        guard let blank = lines.firstIndex(of: "") else { return nil }
        var name: String?
        var isFile = false
        for header in lines[..<blank] {
            guard let colon = header.firstIndex(of: ":"),
                header[..<colon].trimmed.lowercased() == "content-disposition"
            else { continue }
            for parameter in header[header.index(after: colon)...].split(separator: ";").dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { continue }
                var value = pair[1].trimmed
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                switch pair[0].trimmed.lowercased() {
                case "name": name = value
                case "filename": isFile = true
                default: break
                }
            }
        }
        guard let name else { return .some(nil) }
        let value = lines[(blank + 1)...].joined(separator: "\r\n")
        return .some(MultipartFields(name: name, value: value, isFile: isFile))
    }
}
