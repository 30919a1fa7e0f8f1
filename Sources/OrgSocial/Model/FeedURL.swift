/// The one spelling of a feed URL, so that one `social.org` is one feed: what the relay stores and looks up,
/// and what the client compares (a follow, the feeds of a timeline, the authors of votes and replies).
///
/// ``canonical(_:)`` applies RFC 3986 §6.2.2 syntax-based normalisation plus two rules for feeds:
///
/// - the scheme and host are lower-cased (`HTTP://Example.COM` is `http://example.com`), and the default
///   port (`:80` for http, `:443` for https, or an empty `:`) is dropped;
/// - percent-encoded unreserved characters are decoded (`%73ocial.org` is `social.org`) and the other
///   escapes get upper-case hex digits;
/// - dot segments (`/./`, `/../`) are removed; in addition, empty segments (`//`) are collapsed and trailing
///   slashes are dropped: a `social.org` file is never a directory, so `…/social.org/` and `…//social.org`
///   name the same file;
/// - the fragment is dropped (it never reaches the server).
///
/// The query is kept by ``canonical(_:)``, because RFC 3986 makes it part of the resource's identity
/// (`feed.php?user=alice` and `?user=bob` may be two feeds). **Policy:** new feeds (registrations and
/// discovered follows or peers) go through ``registrable(_:)``, which refuses a URL with a query: a
/// `social.org` file is a static file, and accepting `?x=1`, `?x=2`, … would let one feed be listed (and
/// crawled, and found by search) any number of times. Rows stored before this rule keep their query.
///
/// Control characters (U+0000–U+001F, U+007F–U+009F) and spaces are refused anywhere in the URL.
public enum FeedURL {
    /// Why a feed URL cannot be normalised.
    public enum Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL holds a control character or a space at `offset` (in Unicode scalars).
        case controlCharacter(url: String, offset: Int)
        /// The URL is not an absolute `http://` or `https://` URL with a host and a numeric port.
        case notHTTP(url: String)
        /// The URL has a query (`?…`), which new feeds may not have.
        case hasQuery(url: String)
        /// The URL is not spelt canonically (only ``FeedURL/problem(registering:)`` says so).
        case notCanonical(url: String, canonical: String)

        /// What is wrong and what to do.
        public var description: String {
            switch self {
            case .controlCharacter(let url, let offset):
                return "\(url.debugDescription) contains a control character or space at offset \(offset); "
                    + "remove it (encode a space as %20)"
            case .notHTTP(let url):
                return "\(url) is not an absolute http:// or https:// URL with a host"
            case .hasQuery(let url):
                return "\(url) has a query string; register the feed's URL without '?…' (a social.org file "
                    + "is a static file)"
            case .notCanonical(let url, let canonical):
                return "\(url) is spelt differently from its canonical form \(canonical); use that one"
            }
        }
    }

    /// The canonical spelling of an http(s) URL, query kept (see the type's documentation).
    ///
    /// - Parameter text: The URL, already stripped of surrounding whitespace.
    /// - Returns: The canonical URL; an already canonical URL is returned unchanged.
    /// - Throws: ``Problem/controlCharacter(url:offset:)`` or ``Problem/notHTTP(url:)``.
    public static func canonical(_ text: String) throws(Problem) -> String {
        try parse(text).joined(query: true)
    }

    /// The canonical spelling of a URL for a new feed: ``canonical(_:)``, refusing a query.
    ///
    /// - Parameter text: The URL, already stripped of surrounding whitespace.
    /// - Returns: The canonical URL.
    /// - Throws: ``Problem``: `.hasQuery` for a URL with `?`, or the errors of ``canonical(_:)``.
    public static func registrable(_ text: String) throws(Problem) -> String {
        let parts = try parse(text)
        if parts.query != nil { throw .hasQuery(url: text) }
        return parts.joined(query: false)
    }

    /// Why `url` cannot be registered as it is spelt: `nil` when ``registrable(_:)`` returns it unchanged.
    ///
    /// - Parameter url: A URL that should already be canonical.
    /// - Returns: The problem, or `nil`.
    public static func problem(registering url: String) -> Problem? {
        do {
            let canonical = try registrable(url)
            return canonical == url ? nil : .notCanonical(url: url, canonical: canonical)
        } catch {
            return error
        }
    }

    /// The spelling to compare and store `url` under: ``canonical(_:)``, or `url` itself when it has no
    /// canonical form (not an http(s) URL, or a control character in it), so that such a URL still equals
    /// only itself.
    ///
    /// - Parameter url: A URL as written.
    /// - Returns: The canonical URL, or `url`.
    public static func normalized(_ url: String) -> String {
        (try? canonical(url)) ?? url
    }

    /// Whether two URLs name the same feed: their ``normalized(_:)`` spellings are equal.
    ///
    /// - Parameters:
    ///   - lhs: A URL as written.
    ///   - rhs: Another URL as written.
    /// - Returns: Whether they are spellings of one URL.
    public static func same(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || normalized(lhs) == normalized(rhs)
    }

    /// Whether `byte` is an RFC 3986 unreserved character (`A–Z a–z 0–9 - . _ ~`), which an escape may be
    /// decoded to and which a URL-encoded value keeps as it is.
    ///
    /// - Parameter byte: A byte of UTF-8.
    /// - Returns: Whether it is unreserved.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    // MARK: - Parsing

    private struct Parts {
        var scheme: String
        var authority: String
        var path: String
        var query: String?

        func joined(query keepQuery: Bool) -> String {
            var text = scheme + "://" + authority + path
            if keepQuery, let query { text += "?" + query }
            return text
        }
    }

    private static func parse(_ text: String) throws(Problem) -> Parts {
        for (offset, scalar) in text.unicodeScalars.enumerated()
        where scalar.value <= 0x20 || (0x7F...0x9F).contains(scalar.value) {
            throw .controlCharacter(url: text, offset: offset)
        }
        guard let colon = text.firstIndex(of: ":") else { throw .notHTTP(url: text) }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else { throw .notHTTP(url: text) }
        var rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw .notHTTP(url: text) }
        rest = rest.dropFirst(2)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var query: String?
        if let mark = rest.firstIndex(of: "?") {
            query = normalizeEscapes(String(rest[rest.index(after: mark)...]), decodeUnreserved: true)
            rest = rest[..<mark]
        }
        let pathStart = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = try normalizeAuthority(String(rest[..<pathStart]), scheme: scheme, url: text)
        let path = normalizePath(String(rest[pathStart...]))
        return Parts(scheme: scheme, authority: authority, path: path, query: query)
    }

    /// `user@HOST:port` → `user@host[:port]`, the default port dropped.
    private static func normalizeAuthority(_ authority: String, scheme: String, url: String) throws(Problem) -> String {
        var userInfo = ""
        var hostPort = Substring(authority)
        if let at = authority.lastIndex(of: "@") {
            userInfo = String(authority[...at])
            hostPort = authority[authority.index(after: at)...]
        }
        var host = hostPort
        var port: Substring?
        if let colon = hostPort.lastIndex(of: ":"), !hostPort[colon...].contains("]") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        }
        let lowerHost = normalizeEscapes(host.lowercased(), decodeUnreserved: true)
        guard !lowerHost.isEmpty else { throw .notHTTP(url: url) }
        var result = userInfo + lowerHost
        if let port, !port.isEmpty {
            guard port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port), number <= 65_535 else {
                throw .notHTTP(url: url)
            }
            let defaultPort = scheme == "https" ? 443 : 80
            if number != defaultPort { result += ":\(number)" }
        }
        return result
    }

    /// Decodes unreserved escapes, collapses empty segments, removes dot segments (RFC 3986 §5.2.4) and
    /// trailing slashes.
    private static func normalizePath(_ path: String) -> String {
        let decoded = normalizeEscapes(path, decodeUnreserved: true)
        var output: [Substring] = []
        for segment in decoded.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": _ = output.popLast()
            default: output.append(segment)
            }
        }
        return output.isEmpty ? "" : "/" + output.joined(separator: "/")
    }

    /// Decodes `%XX` escapes of unreserved characters (`A–Z a–z 0–9 - . _ ~`) and upper-cases the hex
    /// digits of the others; a `%` not followed by two hex digits is kept as it is.
    private static func normalizeEscapes(_ text: String, decodeUnreserved: Bool) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                let value = high << 4 | low
                if decodeUnreserved, isUnreserved(value) {
                    output.append(value)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "%"), upperHex(high), upperHex(low)])
                }
                index += 3
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func upperHex(_ value: UInt8) -> UInt8 {
        Array("0123456789ABCDEF".utf8)[Int(value)]
    }
}
