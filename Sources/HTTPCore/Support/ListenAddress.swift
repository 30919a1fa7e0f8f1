/// Where a listener binds, written `HOST:PORT` (`127.0.0.1:9464`, `[::1]:9464`), as the
/// `--metrics-address` options take it.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address (an IPv6 one without brackets) or `localhost`.
    public var host: String
    /// The TCP port; 0 picks a free one.
    public var port: Int

    /// Makes an address.
    ///
    /// - Parameters:
    ///   - host: The numeric address or `localhost`.
    ///   - port: The TCP port.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, with an IPv6 host in brackets; `nil` when the text is not of that form or the
    /// port is not 0–65535.
    ///
    /// - Parameter text: The address, e.g. `127.0.0.1:9464`.
    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        var host = Substring(text[..<colon])
        let portText = text[text.index(after: colon)...]
        if host.hasPrefix("[") {
            guard host.hasSuffix("]") else { return nil }
            host = host.dropFirst().dropLast()
        } else if host.contains(":") {
            return nil
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }),
            !portText.isEmpty, portText.allSatisfy(\.isASCII), let port = Int(portText), (0...65535).contains(port)
        else { return nil }
        self.init(host: String(host), port: port)
    }

    /// `HOST:PORT`, with an IPv6 host in brackets.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
