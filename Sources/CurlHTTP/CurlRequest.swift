/// One transfer as ``CurlClient`` performs it: plain Swift values, no libcurl types.
package struct CurlRequest: Sendable, Hashable {
    /// The method, e.g. `GET` or `PUT`.
    package var method: String
    /// The absolute http or https URL.
    package var url: String
    /// The header fields sent, in order (`User-Agent` among them, if any).
    package var headers: [CurlHeader]
    /// The body sent; `nil` for none (an empty array sends `Content-Length: 0`).
    package var body: [UInt8]?
    /// Whether redirects are followed; when `false`, the redirect response itself is returned.
    package var followsRedirects: Bool
    /// How many redirects are followed at most.
    package var maximumRedirects: Int
    /// The largest decoded body accepted, or `nil` for any size.
    package var maximumBodyBytes: Int?
    /// Whether a body past ``maximumBodyBytes`` is cut there (the transfer stops and the response keeps
    /// the first ``maximumBodyBytes`` bytes) instead of failing with ``CurlError/bodyTooLarge(limit:)``.
    package var truncatesBody: Bool
    /// How long the transfer may go without sending or receiving anything (connecting included).
    package var inactivityTimeout: Duration
    /// The longest the whole transfer may take, or `nil` for no limit beyond the inactivity timeout.
    package var totalTimeout: Duration?

    /// Makes a request.
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the URL.
    ///   - headers: the header fields.
    ///   - body: the body, or `nil`.
    ///   - followsRedirects: whether to follow redirects.
    ///   - maximumRedirects: the redirect limit.
    ///   - maximumBodyBytes: the decoded body limit, or `nil`.
    ///   - truncatesBody: whether a longer body is cut at the limit instead of failing.
    ///   - inactivityTimeout: the inactivity timeout.
    ///   - totalTimeout: the total timeout, or `nil`.
    package init(
        method: String, url: String, headers: [CurlHeader] = [], body: [UInt8]? = nil,
        followsRedirects: Bool = true, maximumRedirects: Int = 10, maximumBodyBytes: Int? = nil,
        truncatesBody: Bool = false, inactivityTimeout: Duration = .seconds(30), totalTimeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.followsRedirects = followsRedirects
        self.maximumRedirects = maximumRedirects
        self.maximumBodyBytes = maximumBodyBytes
        self.truncatesBody = truncatesBody
        self.inactivityTimeout = inactivityTimeout
        self.totalTimeout = totalTimeout
    }
}

/// One header field, as sent or received.
package struct CurlHeader: Sendable, Hashable {
    /// The name, as written.
    package var name: String
    /// The value, without surrounding whitespace.
    package var value: String

    /// Makes a field.
    /// - Parameters:
    ///   - name: the name.
    ///   - value: the value.
    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The final response of a transfer (after any followed redirects).
package struct CurlResponse: Sendable, Hashable {
    /// The status code.
    package var status: Int
    /// The header fields of the final response, in order.
    package var headers: [CurlHeader]
    /// The body, decoded from any `Content-Encoding`.
    package var body: [UInt8]
    /// The URL that answered (`CURLINFO_EFFECTIVE_URL`).
    package var url: String
}

/// The final response of a streaming transfer: its status and header, and its body as it arrives.
package struct CurlStreamingResponse: Sendable {
    /// The status code.
    package var status: Int
    /// The header fields of the final response, in order.
    package var headers: [CurlHeader]
    /// The URL that answered (`CURLINFO_EFFECTIVE_URL`).
    package var url: String
    /// The decoded body's pieces, in order, as libcurl hands them over; it throws ``CurlError`` when the
    /// transfer fails midway and ends when the body does.
    package var body: AsyncThrowingStream<[UInt8], any Error>
}
