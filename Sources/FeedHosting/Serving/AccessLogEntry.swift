/// One line of the node's access log: who asked for what, the answer, and how long it took.
package struct AccessLogEntry: Sendable, Equatable {
    /// The client's IP address.
    package var remoteAddress: String
    /// The request method.
    package var method: String
    /// The request target without its query string (the Host API never puts secrets in the URL).
    package var path: String
    /// The response status code.
    package var status: Int
    /// The number of body bytes sent (0 for `HEAD` and 304).
    package var bytes: Int
    /// The time from the complete request to the response being handed to the server.
    package var duration: Duration

    /// `127.0.0.1 "GET /alice/social.org" 200 1048576 0.42ms`.
    package var line: String {
        let (seconds, attoseconds) = duration.components
        let hundredths = (Int(seconds) * 100_000 + Int(attoseconds / 10_000_000_000_000)) / 1
        let milliseconds = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
        return
            "\(remoteAddress.isEmpty ? "-" : remoteAddress) \"\(method) \(path)\" \(status) \(bytes) \(milliseconds)ms"
    }
}
