internal import CCurl
import Glibc
import Synchronization

/// One transfer: an easy handle set up for one ``CurlRequest``, the buffers libcurl reads from and writes
/// to, and the continuation its caller waits on.
///
/// A buffered transfer resumes its caller once, with the whole response. A streaming one (made with a
/// `bodySink`) resumes its caller as soon as the final response's header has arrived (with an empty
/// body), then yields each piece of the decoded body to the sink and finishes the sink when the transfer
/// ends (with the transfer's error, if any).
///
/// The handle, its header list, its error buffer and its upload body are owned here and freed in `deinit`,
/// after the loop has removed the handle from its multi handle. libcurl calls back (write, header,
/// progress, open-socket) on the loop's thread with an unretained pointer to this object as context; the
/// loop's `active` table keeps it alive for as long as the handle is in the multi handle.
final class CurlTransfer: @unchecked Sendable {
    // @unchecked Sendable: `phase` is behind a Mutex; everything else that changes (the response being
    // received, the activity clock, `failure`) is only touched on the loop's thread once the transfer has
    // been handed to the loop (`init` runs before that, on the caller's thread, and nothing else sees the
    // object until then). `bodySink` is a continuation, which is thread-safe.

    /// Where the caller's wait stands.
    private enum Phase {
        /// Made, not yet handed to the loop.
        case created
        /// Cancelled before it was handed to the loop.
        case cancelledEarly
        /// Handed to the loop; the caller waits on the continuation.
        case submitted(CheckedContinuation<CurlResponse, any Error>)
        /// The continuation has been resumed.
        case finished
    }

    /// The request.
    let request: CurlRequest
    /// The easy handle.
    let easy: UnsafeMutableRawPointer
    /// Decides whether a resolved address may be connected to (the bytes of an IPv4 or IPv6 address).
    private let connectionFilter: (@Sendable ([UInt8]) -> Bool)?
    private let phase = Mutex(Phase.created)
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let upload: UnsafeMutableRawBufferPointer?
    /// Where a streaming transfer's body goes, piece by piece; `nil` for a buffered transfer.
    private let bodySink: AsyncThrowingStream<[UInt8], any Error>.Continuation?

    // MARK: Loop-thread state

    /// The status of the response being received (the last status line seen).
    private var status = 0
    /// The headers of the response being received (reset at each status line: redirects, 100 Continue).
    private var headers: [CurlHeader] = []
    /// The decoded body so far.
    private var body: [UInt8] = []
    /// Whether the body was cut at the limit (``CurlRequest/truncatesBody``): the stop is then no failure.
    private var truncated = false
    /// Whether a streaming transfer has handed its caller the final response's header: body bytes go to
    /// the sink from then on.
    private var isStreamingBody = false
    /// Why the transfer was stopped by this side (a limit, the filter, a timeout), if it was.
    var failure: CurlError?
    /// When the transfer was handed to the loop.
    private(set) var startedAt = ContinuousClock.now
    /// When bytes last went in or out.
    private(set) var lastActivity = ContinuousClock.now
    private var lastCounts: (Int64, Int64) = (0, 0)

    /// Makes an easy handle set up for `request`.
    /// - Parameters:
    ///   - request: the request.
    ///   - connectionFilter: called with each address before connecting; `false` refuses it.
    ///   - bodySink: for a streaming transfer, where the body's pieces go (and which is finished when the
    ///     transfer ends); `nil` to buffer the body in the response.
    /// - Throws: ``CurlError/setupFailed(message:)`` when libcurl refuses a handle or an option.
    init(
        _ request: CurlRequest, connectionFilter: (@Sendable ([UInt8]) -> Bool)?,
        bodySink: AsyncThrowingStream<[UInt8], any Error>.Continuation? = nil
    ) throws(CurlError) {
        if let curlGlobalFailure { throw curlGlobalFailure }
        guard let easy = curl_easy_init() else { throw .setupFailed(message: "curl_easy_init failed") }
        self.request = request
        self.easy = easy
        self.connectionFilter = connectionFilter
        self.bodySink = bodySink
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        if let body = request.body {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
            copy.copyBytes(from: body)
            upload = copy
        } else {
            upload = nil
        }
        try configure()
    }

    deinit {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headerList)
        errorBuffer.deallocate()
        upload?.deallocate()
    }

    // MARK: - Setup

    private func configure() throws(CurlError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeRawPointer(errorBuffer), "CURLOPT_ERRORBUFFER")
        try set(CURLOPT_URL, string: request.url, "CURLOPT_URL")
        try set(CURLOPT_PROTOCOLS_STR, string: "http,https", "CURLOPT_PROTOCOLS_STR")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https", "CURLOPT_REDIR_PROTOCOLS_STR")
        try set(CURLOPT_FOLLOWLOCATION, request.followsRedirects ? 1 : 0, "CURLOPT_FOLLOWLOCATION")
        try set(CURLOPT_MAXREDIRS, request.maximumRedirects, "CURLOPT_MAXREDIRS")
        try set(CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        // "" asks for every encoding this libcurl decodes (gzip, deflate, …): the body arrives decoded and
        // the size limit counts decoded bytes.
        try set(CURLOPT_ACCEPT_ENCODING, string: "", "CURLOPT_ACCEPT_ENCODING")
        try set(CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.inactivityTimeout), "CURLOPT_CONNECTTIMEOUT_MS")
        if let total = request.totalTimeout {
            try set(CURLOPT_TIMEOUT_MS, Self.milliseconds(total), "CURLOPT_TIMEOUT_MS")
        }
        try configureMethod()
        try configureHeaders()
        try check(ccurl_easy_setopt_write(easy, CURLOPT_WRITEFUNCTION, curlWriteBody), "CURLOPT_WRITEFUNCTION")
        try set(CURLOPT_WRITEDATA, pointer: context, "CURLOPT_WRITEDATA")
        try check(ccurl_easy_setopt_write(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader), "CURLOPT_HEADERFUNCTION")
        try set(CURLOPT_HEADERDATA, pointer: context, "CURLOPT_HEADERDATA")
        try check(
            ccurl_easy_setopt_xferinfo(easy, CURLOPT_XFERINFOFUNCTION, curlProgress), "CURLOPT_XFERINFOFUNCTION")
        try set(CURLOPT_XFERINFODATA, pointer: context, "CURLOPT_XFERINFODATA")
        try set(CURLOPT_NOPROGRESS, 0, "CURLOPT_NOPROGRESS")
        if connectionFilter != nil {
            try check(
                ccurl_easy_setopt_opensocket(easy, CURLOPT_OPENSOCKETFUNCTION, curlOpenSocket),
                "CURLOPT_OPENSOCKETFUNCTION")
            try set(CURLOPT_OPENSOCKETDATA, pointer: context, "CURLOPT_OPENSOCKETDATA")
        }
    }

    private func configureMethod() throws(CurlError) {
        switch request.method {
        case "GET" where upload == nil: try set(CURLOPT_HTTPGET, 1, "CURLOPT_HTTPGET")
        case "HEAD": try set(CURLOPT_NOBODY, 1, "CURLOPT_NOBODY")
        case "POST": break
        default: try set(CURLOPT_CUSTOMREQUEST, string: request.method, "CURLOPT_CUSTOMREQUEST")
        }
        if let upload, let body = request.body {
            try check(
                ccurl_easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                "CURLOPT_POSTFIELDSIZE_LARGE")
            // Not copied by libcurl: `upload` lives as long as the handle.
            try set(CURLOPT_POSTFIELDS, pointer: UnsafeRawPointer(upload.baseAddress), "CURLOPT_POSTFIELDS")
        }
    }

    private func configureHeaders() throws(CurlError) {
        var names = Set<String>()
        for field in request.headers {
            names.insert(field.name.lowercased())
            // "Name;" is libcurl's way to send a header with an empty value ("Name:" would remove it).
            append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // No "Expect: 100-continue" wait before large bodies.
        if !names.contains("expect") { append("Expect:") }
        try set(CURLOPT_HTTPHEADER, list: headerList, "CURLOPT_HTTPHEADER")
    }

    private func append(_ line: String) {
        headerList = curl_slist_append(headerList, line)
    }

    private func set(_ option: CURLoption, _ value: Int, _ name: String) throws(CurlError) {
        try check(ccurl_easy_setopt_long(easy, option, value), name)
    }

    private func set(_ option: CURLoption, string: String, _ name: String) throws(CurlError) {
        // libcurl copies string options (since 7.17), so the C string need not outlive the call.
        try check(string.withCString { ccurl_easy_setopt_pointer(easy, option, $0) }, name)
    }

    private func set(_ option: CURLoption, pointer: UnsafeRawPointer?, _ name: String) throws(CurlError) {
        try check(ccurl_easy_setopt_pointer(easy, option, pointer), name)
    }

    private func set(
        _ option: CURLoption, list: UnsafeMutablePointer<curl_slist>?, _ name: String
    ) throws(CurlError) {
        try check(ccurl_easy_setopt_list(easy, option, list), name)
    }

    private func check(_ code: CURLcode, _ name: String) throws(CurlError) {
        try CurlError.check(code, context: name)
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let parts = duration.components
        return max(1, Int(parts.seconds) * 1000 + Int(parts.attoseconds / 1_000_000_000_000_000))
    }

    // MARK: - The caller's wait

    /// Records the continuation the caller waits on.
    /// - Parameter continuation: the caller's continuation.
    /// - Returns: `true` when the transfer should now go to the loop; `false` when it was cancelled
    ///   already (the continuation has then been resumed with `CancellationError`).
    func attach(_ continuation: CheckedContinuation<CurlResponse, any Error>) -> Bool {
        let cancelled = phase.withLock { phase -> Bool in
            guard case .created = phase else { return true }
            phase = .submitted(continuation)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Notes that the caller's task was cancelled.
    /// - Returns: `true` when the loop must remove the transfer (it was handed over and is not finished).
    func noteCancellation() -> Bool {
        phase.withLock { phase in
            switch phase {
            case .created:
                phase = .cancelledEarly
                return false
            case .submitted: return true
            case .cancelledEarly, .finished: return false
            }
        }
    }

    /// Resumes the caller with `result`, once; later calls do nothing. A streaming transfer's sink is
    /// finished too: normally after a response, with the error after a failure.
    /// - Parameter result: the response or the error.
    func finish(_ result: Result<CurlResponse, any Error>) {
        resumeCaller(with: result)
        switch result {
        case .success: bodySink?.finish()
        case .failure(let error): bodySink?.finish(throwing: error)
        }
    }

    /// Resumes the caller's continuation with `result` if it still waits.
    private func resumeCaller(with result: Result<CurlResponse, any Error>) {
        let continuation = phase.withLock { phase -> CheckedContinuation<CurlResponse, any Error>? in
            guard case .submitted(let continuation) = phase else { return nil }
            phase = .finished
            return continuation
        }
        continuation?.resume(with: result)
    }

    // MARK: - Loop-thread work

    /// Starts the activity clocks; called by the loop when it adds the handle.
    func noteStarted() {
        startedAt = .now
        lastActivity = startedAt
    }

    /// The outcome of a transfer libcurl reported done with `code`.
    /// - Parameter code: the transfer's result.
    /// - Returns: the response, or why there is none.
    func outcome(_ code: CURLcode) -> Result<CurlResponse, any Error> {
        if code != CURLE_OK, let failure { return .failure(failure) }
        if truncated {
            let url = request.url
            return .success(CurlResponse(status: status, headers: headers, body: body, url: effectiveURL ?? url))
        }
        var systemError = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &systemError)
        do throws(CurlError) {
            try CurlError.check(
                code, detail: String(cString: errorBuffer), redirectLimit: request.maximumRedirects,
                systemError: systemError)
        } catch {
            return .failure(error)
        }
        var code = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
        return .success(CurlResponse(status: code, headers: headers, body: body, url: effectiveURL ?? request.url))
    }

    /// The URL that answered (`CURLINFO_EFFECTIVE_URL`), if libcurl knows it.
    private var effectiveURL: String? {
        var effective: UnsafeMutablePointer<CChar>?
        _ = ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        return effective.map { String(cString: $0) }
    }

    /// Takes a piece of the decoded body.
    /// - Parameter bytes: the piece.
    /// - Returns: `false` to stop the transfer (the body reached the limit: cut there when the request
    ///   truncates, else a failure).
    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        if let bodySink {
            // Before the final header (a redirect's or a 1xx's body) nothing is the caller's.
            if isStreamingBody { bodySink.yield(Array(bytes)) }
            return true
        }
        if let limit = request.maximumBodyBytes, body.count + bytes.count > limit {
            guard request.truncatesBody else {
                failure = .bodyTooLarge(limit: limit)
                return false
            }
            body.append(contentsOf: bytes.prefix(max(0, limit - body.count)))
            truncated = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// Takes one header line (status line, field, or the blank line that ends the header).
    /// - Parameter bytes: the line, with its CRLF.
    /// - Returns: `false` to stop the transfer (an honest `Content-Length` already says it is too large).
    fileprivate func receiveHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        var line = String(decoding: bytes, as: UTF8.self)
        while line.last?.isNewline == true { line.removeLast() }
        if line.hasPrefix("HTTP/") {
            status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            headers = []
            body = []
            truncated = false
        } else if line.isEmpty {
            if bodySink != nil {
                startStreamingIfFinal()
                return true
            }
            return acceptsDeclaredLength()
        } else if let colon = line.firstIndex(of: ":") {
            let name = String(line[..<colon]).trimmingSpaces()
            let value = String(line[line.index(after: colon)...]).trimmingSpaces()
            headers.append(CurlHeader(name: name, value: value))
        }
        return true
    }

    /// Hands a streaming transfer's caller the response whose header just ended, unless more responses
    /// follow it (a 1xx, or a redirect being followed).
    private func startStreamingIfFinal() {
        guard !isStreamingBody, status >= 200 else { return }
        let location = headers.contains { $0.name.lowercased() == "location" }
        if request.followsRedirects, (300..<400).contains(status), location { return }
        isStreamingBody = true
        resumeCaller(
            with: .success(CurlResponse(status: status, headers: headers, body: [], url: effectiveURL ?? request.url)))
    }

    /// Whether the response whose header just ended may be read: `false` when it will carry a body (not
    /// a HEAD, 1xx, 204, 304 or a redirect being followed), is not content-encoded, and declares a
    /// `Content-Length` past the limit, so no byte of it is read (unless the request truncates: then the
    /// first `limit` bytes are read).
    private func acceptsDeclaredLength() -> Bool {
        guard let limit = request.maximumBodyBytes, request.method != "HEAD" else { return true }
        guard status >= 200, status != 204, status != 304 else { return true }
        func field(_ name: String) -> String? { headers.last { $0.name.lowercased() == name }?.value }
        if request.followsRedirects, (300..<400).contains(status), field("location") != nil { return true }
        if let encoding = field("content-encoding"), encoding.lowercased() != "identity" { return true }
        guard let length = field("content-length").flatMap({ Int($0) }) else { return true }
        guard length > limit else {
            // Room for the whole body at once: growing by appends can leave up to half the array unused,
            // and the body is kept (a relay parses the feed from these very bytes).
            body.reserveCapacity(max(0, length))
            return true
        }
        if request.truncatesBody {
            // The first `limit` bytes are read and kept.
            body.reserveCapacity(limit)
            return true
        }
        failure = .bodyTooLarge(limit: limit)
        return false
    }

    /// Notes progress, so the inactivity clock restarts whenever bytes move.
    fileprivate func receiveProgress(downloaded: Int64, uploaded: Int64) {
        guard (downloaded, uploaded) != lastCounts else { return }
        lastCounts = (downloaded, uploaded)
        lastActivity = .now
    }

    /// Opens the socket for a connection, unless the filter refuses its address.
    fileprivate func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family
        if let connectionFilter {
            let bytes = Self.addressBytes(address)
            guard let bytes, connectionFilter(bytes) else {
                failure = .addressRefused(address: bytes.map(Self.addressText) ?? "(unknown address family)")
                return ccurl_socket_bad()
            }
        }
        return socket(family, address.pointee.socktype, address.pointee.protocol)
    }

    /// The raw bytes of an IPv4 (4) or IPv6 (16) socket address, or `nil` for another family.
    private static func addressBytes(_ address: UnsafeMutablePointer<curl_sockaddr>) -> [UInt8]? {
        let family = address.pointee.family
        return withUnsafeMutablePointer(to: &address.pointee.addr) { socketAddress -> [UInt8]? in
            let raw = UnsafeRawPointer(socketAddress)
            switch family {
            case AF_INET:
                var ipv4 = raw.loadUnaligned(as: sockaddr_in.self).sin_addr
                return withUnsafeBytes(of: &ipv4) { Array($0) }
            case AF_INET6:
                var ipv6 = raw.loadUnaligned(as: sockaddr_in6.self).sin6_addr
                return withUnsafeBytes(of: &ipv6) { Array($0) }
            default:
                return nil
            }
        }
    }

    /// An address's usual text form (`192.0.2.1`, `2001:db8::1`).
    private static func addressText(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        let written = bytes.withUnsafeBytes { inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }
        guard written != nil else { return bytes.map(String.init).joined(separator: ".") }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// MARK: - C callbacks (they capture nothing: the transfer comes through the context pointer)

/// `CURLOPT_WRITEFUNCTION`: hands decoded body bytes to the transfer; a short count stops the transfer.
private let curlWriteBody: curl_write_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
    return transfer.receiveBody(bytes) ? size * count : 0
}

/// `CURLOPT_HEADERFUNCTION`: hands one header line to the transfer.
private let curlWriteHeader: curl_write_callback = { buffer, size, count, context in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: buffer, count: size * count)
    return transfer.receiveHeader(bytes) ? size * count : 0
}

/// `CURLOPT_XFERINFOFUNCTION`: restarts the inactivity clock when bytes move; never aborts.
private let curlProgress: curl_xferinfo_callback = { context, _, downloaded, _, uploaded in
    guard let context else { return 0 }
    Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
        .receiveProgress(downloaded: Int64(downloaded), uploaded: Int64(uploaded))
    return 0
}

/// `CURLOPT_OPENSOCKETFUNCTION`: opens the socket unless the transfer's filter refuses the address.
private let curlOpenSocket: curl_opensocket_callback = { context, _, address in
    guard let context, let address else { return ccurl_socket_bad() }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().openSocket(address)
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    fileprivate func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
        while slice.last == " " || slice.last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
