import Foundation

/// A problem a server found in an uploaded feed (the body of a 422 answer), as far as it said.
public struct RemoteDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 1-based line, when given.
    public var line: Int?
    /// The 1-based column, when given.
    public var column: Int?
    /// `error` or `warning`, when given.
    public var severity: String?
    /// A stable code such as `missing-post-id`, when given.
    public var code: String?
    /// The explanation.
    public var message: String

    /// Makes a diagnostic.
    /// - Parameters:
    ///   - line: the line.
    ///   - column: the column.
    ///   - severity: `error` or `warning`.
    ///   - code: the diagnostic's code.
    ///   - message: the explanation.
    public init(line: Int? = nil, column: Int? = nil, severity: String? = nil, code: String? = nil, message: String) {
        self.line = line
        self.column = column
        self.severity = severity
        self.code = code
        self.message = message
    }

    /// `12:1: error: … [code]`, leaving out what is unknown.
    public var description: String {
        var text = ""
        if let line { text += column.map { "\(line):\($0): " } ?? "\(line): " }
        if let severity { text += "\(severity): " }
        text += message
        if let code { text += " [\(code)]" }
        return text
    }

    /// Reads the diagnostics from a 422 body, whatever its shape: a list of diagnostics, or an object
    /// (possibly a `{"type","errors","data"}` envelope) holding one under `diagnostics`, `problems` or
    /// `data`. Entries may be objects or plain strings; the strings of an `errors` member are messages.
    /// - Parameter body: the response body.
    /// - Returns: the diagnostics and a top-level message, if any.
    static func decode(from body: [UInt8]) -> (diagnostics: [RemoteDiagnostic], message: String?) {
        guard let json = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]) else {
            let text = String(decoding: body.prefix(500), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            return ([], text.isEmpty ? nil : text.split(separator: "\n").first.map(String.init))
        }
        var messages: [String] = []
        var diagnostics: [RemoteDiagnostic] = []
        func collect(_ value: Any, stringsAreMessages: Bool) {
            if let list = value as? [Any] {
                for item in list {
                    if let text = item as? String, stringsAreMessages {
                        messages.append(text)
                    } else if let diagnostic = diagnostic(from: item) {
                        diagnostics.append(diagnostic)
                    }
                }
            } else if let object = value as? [String: Any] {
                if let text = object["message"] as? String ?? object["error"] as? String { messages.append(text) }
                for key in ["diagnostics", "problems", "data"] {
                    if let member = object[key] { collect(member, stringsAreMessages: false) }
                }
                if let member = object["errors"] { collect(member, stringsAreMessages: true) }
            } else if let text = value as? String {
                messages.append(text)
            }
        }
        collect(json, stringsAreMessages: false)
        return (diagnostics, messages.isEmpty ? nil : messages.joined(separator: "; "))
    }

    private static func diagnostic(from value: Any) -> RemoteDiagnostic? {
        if let text = value as? String { return RemoteDiagnostic(message: text) }
        guard let object = value as? [String: Any], let message = object["message"] as? String else { return nil }
        return RemoteDiagnostic(
            line: object["line"] as? Int, column: object["column"] as? Int, severity: object["severity"] as? String,
            code: object["code"] as? String, message: message)
    }
}
