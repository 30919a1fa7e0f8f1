import Foundation

/// A vfile: the Org Social Host's capability URL, which is an account's only credential (spec §11).
///
/// Format: `<site-url>/vfile?token=<64 hex digits>&ts=<unix seconds>&sig=<hex HMAC-SHA-256 of
/// "token:ts:nick">`. The URL is never fetched (there is no `/vfile` route); clients send it whole in
/// the `vfile` field of Host API requests, and the server finds the account by `token` and checks `sig`
/// against the account's nick.
struct VFile: Sendable, Equatable {
    /// The random token, 64 hex digits (256 bits) when issued by this node.
    var token: String
    /// The issue time, in seconds since 1970.
    var timestamp: Int
    /// The hex signature.
    var signature: String

    /// Reads the three parameters from a vfile URL; `nil` (answered with `Invalid vfile format`) when the
    /// URL cannot be parsed, or `token`, `ts` or `sig` is missing or empty, or `ts` is not a non-zero
    /// integer.
    ///
    /// - Parameter text: The whole vfile URL as a client sent it.
    init?(url text: String) {
        guard let components = URLComponents(string: text), let items = components.queryItems else { return nil }
        func first(_ name: String) -> String? {
            items.first { $0.name == name }?.value
        }
        guard
            let token = first("token"), !token.isEmpty,
            let timestamp = first("ts").flatMap({ Int($0) }), timestamp != 0,
            let signature = first("sig"), !signature.isEmpty
        else { return nil }
        self.token = token
        self.timestamp = timestamp
        self.signature = signature
    }

    /// A vfile with these parameters.
    init(token: String, timestamp: Int, signature: String) {
        self.token = token
        self.timestamp = timestamp
        self.signature = signature
    }

    /// The URL to hand to the account's owner: `<siteURL>/vfile?token=…&ts=…&sig=…`.
    func url(siteURL: String) -> String {
        "\(siteURL)/vfile?token=\(token)&ts=\(timestamp)&sig=\(signature)"
    }

    /// Whether `token` has the shape this node issues (64 lowercase or uppercase hex digits).
    var hasIssuedShape: Bool {
        token.utf8.count == 64
            && token.utf8.allSatisfy { byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            }
    }
}
