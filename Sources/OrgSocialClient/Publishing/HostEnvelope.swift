import Foundation

/// The JSON envelope every Org Social Host answer is wrapped in:
/// `{"type": "Success"|"Error", "errors": [string], "data": …}` (`org-social-spec.md` §11).
struct HostEnvelope {
    /// `Success` or `Error`, when present.
    var type: String?
    /// The error messages, exactly as the server wrote them.
    var errors: [String]
    /// The `data` member, as decoded by `JSONSerialization`.
    var data: Any?
    /// A `message` member at the top level, if any (some servers put it there), else `error` or a problem
    /// object's `detail`.
    var message: String?

    /// Decodes an envelope; `nil` when the body is not a JSON object.
    /// - Parameter body: the response body.
    init?(body: [UInt8]) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else { return nil }
        type = object["type"] as? String
        errors =
            (object["errors"] as? [Any])?.compactMap { $0 as? String } ?? (object["errors"] as? String).map { [$0] }
            ?? []
        data = object["data"]
        message = object["message"] as? String ?? object["error"] as? String ?? object["detail"] as? String
    }

    /// Whether the server said it failed.
    var isError: Bool { type?.lowercased() == "error" }

    /// A string member of `data`.
    func string(_ key: String) -> String? {
        (data as? [String: Any])?[key] as? String
    }
}
