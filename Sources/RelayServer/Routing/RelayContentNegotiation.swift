import HTTPCore

/// Django REST framework's content negotiation for the relay's one renderer (`application/json`): which
/// `Accept` headers it can satisfy and whether the client asked for indented output.
enum RelayContentNegotiation: Sendable, Equatable {
    /// JSON is acceptable; `indent` is the `indent=N` parameter of the matching `application/json`
    /// range (clamped to 0…8 as DRF does), or `nil` for compact output.
    case json(indent: Int?)
    /// Nothing in `Accept` matches `application/json`: `406`.
    case notAcceptable
    /// `?format=` names a format other than `json`: DRF's `404 {"detail": "Not found."}`.
    case unknownFormat

    /// Negotiates an `Accept` header (`nil` or blank accepts anything).
    ///
    /// Ranges are tried most specific first, as DRF orders them (`application/json` before
    /// `application/*` before `*/*`); the first that matches decides.
    ///
    /// A non-empty `format` (DRF's `?format=` override) decides instead of `Accept`: `json` is compact
    /// JSON, anything else is ``unknownFormat``.
    ///
    /// - Parameters:
    ///   - accept: The `Accept` field values, joined with commas.
    ///   - format: The last `format` query value, or empty.
    init(accept: String?, format: String = "") {
        if !format.isEmpty {
            self = format == "json" ? .json(indent: nil) : .unknownFormat
            return
        }
        guard let accept, accept.contains(where: { $0 != " " && $0 != "\t" && $0 != "," }) else {
            self = .json(indent: nil)
            return
        }
        var best: (precedence: Int, indent: Int?)?
        for range in MediaRange.list(accept) {
            let precedence: Int
            switch range.type {
            case "application/json": precedence = 3
            case "application/*": precedence = 2
            case "*/*", "*": precedence = 1
            default: continue
            }
            var indent: Int?
            // The last `indent` that is a number, as DRF reads it.
            if precedence == 3,
                let value = range.parameters.lazy.compactMap({ $0.name == "indent" ? Int($0.value) : nil }).last
            {
                indent = min(max(value, 0), 8)
            }
            if best == nil || precedence > best?.precedence ?? 0 {
                best = (precedence, indent)
            }
        }
        if let best {
            self = .json(indent: best.indent)
        } else {
            self = .notAcceptable
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmed: String {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
