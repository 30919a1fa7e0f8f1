/// One line of the node's access log: who asked for what, the answer, and how long it took.
public struct AccessLogEntry: Sendable, Equatable {
    /// The client's IP address.
    public var remoteAddress: String
    /// The request method.
    public var method: String
    /// The request target without its query string (the Host API never puts secrets in the URL).
    public var path: String
    /// The response status code.
    public var status: Int
    /// The number of body bytes sent (0 for `HEAD` and 304).
    public var bytes: Int
    /// The time from the complete request to the response being handed to the server.
    public var duration: Duration

    /// `127.0.0.1 "GET /alice/social.org" 200 1048576 0.42ms`.
    public var line: String {
        let (seconds, attoseconds) = duration.components
        let hundredths = (Int(seconds) * 100_000 + Int(attoseconds / 10_000_000_000_000)) / 1
        let milliseconds = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        return
            "\(remoteAddress.isEmpty ? "-" : remoteAddress) \"\(method) \(path)\" \(status) \(bytes) \(milliseconds)ms"
    }
}
