internal import CMicroHTTPD
import HTTPCore

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Access handler

extension DaemonCore {
    /// Header fields the adapter or libmicrohttpd manage; a responder's values for them are ignored.
    private static let managedHeaders: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// libmicrohttpd's access handler (`MHD_AccessHandlerCallback`), called on the connection's thread:
    /// once when the headers are in, once per piece of body, and once more when the request is complete.
    func handleAccess(
        connection: OpaquePointer,
        url: UnsafePointer<CChar>?,
        method: UnsafePointer<CChar>?,
        version: UnsafePointer<CChar>?,
        uploadData: UnsafePointer<CChar>?,
        uploadDataSize: UnsafeMutablePointer<Int>,
        exchangeSlot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        let exchange: Exchange
        if let existing = exchangeSlot.pointee {
            exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        } else {
            // The URI-log callback always runs first; this is a fallback that loses only the query.
            exchange = Exchange(target: url.map { String(cString: $0) } ?? "/")
            exchangeSlot.pointee = Unmanaged.passRetained(exchange).toOpaque()
        }
        switch exchange.phase {
        case .awaitingHeaders:
            tracker.headReceived(Int(bitPattern: connection))
            exchange.markCountedInFlight()
            requestStarted()
            let token = method.map { String(cString: $0) } ?? "GET"
            let isHTTP11 = version.map { strcmp($0, "HTTP/1.1") == 0 } ?? false
            return beginRequest(exchange, method: HTTPMethod(token), isHTTP11: isHTTP11, on: connection)
        case .receivingBody where uploadDataSize.pointee > 0:
            let piece = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
            let outcome = exchange.receive(piece, limit: configuration.maximumBodyBytes) { reserveBodyBytes($0) }
            uploadDataSize.pointee = 0
            guard outcome != .overflow else {
                record("Closing a connection whose request body kept coming past the limit (\(exchange.target)).")
                return .NO
            }
            return .YES
        case .receivingBody:
            exchange.markResponded()
            if exchange.isOverBudget {
                refusals.record(.bufferedBodyBytes)
                return queue(Self.busyResponse(), for: exchange.method, exchange: exchange, on: connection)
            }
            if exchange.isOverLimit {
                return queue(bodyTooLargeResponse(), for: exchange.method, exchange: exchange, on: connection)
            }
            return respond(to: exchange.makeRequest(), exchange: exchange, on: connection)
        case .responded:
            return .NO
        }
    }

    /// Checks the request head and either answers at once (a malformed head, a body over a limit, or
    /// the responder's ``HTTPResponder/respondBeforeBody(to:)``) or starts receiving the body.
    private func beginRequest(
        _ exchange: Exchange,
        method: HTTPMethod,
        isHTTP11: Bool,
        on connection: OpaquePointer
    ) -> MHD_Result {
        let headers = Self.headers(of: connection)
        func answer(_ response: HTTPResponse) -> MHD_Result {
            exchange.markResponded()
            return queue(response, for: method, exchange: exchange, on: connection)
        }
        // RFC 9112, section 3.2: a server must answer 400 to an HTTP/1.1 request without exactly one Host.
        if isHTTP11, headers.values(for: "Host").count != 1 {
            return answer(Self.badRequest("An HTTP/1.1 request needs exactly one Host header field."))
        }
        if Self.hasEncodedControlCharacter(exchange.target) {
            return answer(Self.badRequest("The request path contains an encoded control character."))
        }
        if let problem = Self.framingProblem(headers) {
            return answer(Self.badRequest(problem))
        }
        let limit = configuration.maximumBodyBytes
        var expectedBodyBytes = 0
        if let declared = headers["Content-Length"], !declared.isEmpty, declared.utf8.allSatisfy(Self.isDigit) {
            // All digits but too large for Int is over any limit too.
            guard let length = Int(declared), length <= limit else {
                return answer(bodyTooLargeResponse())
            }
            expectedBodyBytes = length
        }
        let remoteAddress = cmhd_connection_client_address(connection).map(SocketAddress.text(of:)) ?? ""
        let head = HTTPRequest(method: method, target: exchange.target, headers: headers, remoteAddress: remoteAddress)
        if let early = responder.respondBeforeBody(to: head) {
            var response = early
            if expectedBodyBytes > 0 || headers["Transfer-Encoding"] != nil {
                // The body is never read, so the connection cannot carry another request.
                response.headers["Connection"] = "close"
            }
            return answer(response)
        }
        if expectedBodyBytes > 0 {
            guard reserveBodyBytes(expectedBodyBytes) else {
                refusals.record(.bufferedBodyBytes)
                record(
                    "Refusing a \(expectedBodyBytes)-byte body: the buffered-body budget is spent (\(exchange.target))."
                )
                return answer(Self.busyResponse())
            }
            exchange.addReservedBytes(expectedBodyBytes)
        }
        exchange.begin(head, expectedBody: expectedBodyBytes)
        return .YES
    }

    /// Why the body of a request with these header fields has no single length, or `nil` when it has
    /// one (RFC 9112, section 6.3): `Content-Length` values that differ (in several fields or in one
    /// comma-separated list) or are not a number, `Transfer-Encoding` together with `Content-Length`, and a
    /// `Transfer-Encoding` other than exactly `chunked`. libmicrohttpd would use the first length (and read
    /// the rest as a second request) or wait for a body it cannot delimit, so such a request is refused
    /// with 400 and its connection closed before any of its body is read.
    static func framingProblem(_ headers: HTTPHeaders) -> String? {
        let lengths = headers.values(for: "Content-Length").flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        .map { String($0).trimmingSpaces() }
        let codings = headers.values(for: "Transfer-Encoding").flatMap {
            $0.split(separator: ",", omittingEmptySubsequences: false)
        }
        .map { String($0).trimmingSpaces().lowercased() }
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                return "A request may carry Transfer-Encoding or Content-Length, not both."
            }
            guard codings == ["chunked"] else {
                return "Transfer-Encoding must be exactly 'chunked'; no other transfer coding is supported."
            }
        }
        guard lengths.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isDigit) }) else {
            return "Content-Length must be a non-negative decimal number."
        }
        guard Set(lengths.map { $0.drop { $0 == "0" } }).count <= 1 else {
            return "The request has Content-Length values that differ."
        }
        return nil
    }

    /// Whether a request target's path holds a percent-encoded control character (`%00`–`%1F`, `%7F`),
    /// which no feed or API path has and which C-string handling would truncate.
    static func hasEncodedControlCharacter(_ target: String) -> Bool {
        var bytes = target.utf8[...]
        if let end = bytes.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            bytes = bytes[..<end]
        }
        let input = Array(bytes)
        var index = 0
        while index + 2 < input.count {
            if input[index] == UInt8(ascii: "%") {
                let high = input[index + 1]
                let low = input[index + 2] | 0x20
                let isHex =
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(low)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(low)
                if isHex, high == UInt8(ascii: "0") || high == UInt8(ascii: "1") { return true }
                if high == UInt8(ascii: "7"), low == UInt8(ascii: "f") { return true }
            }
            index += 1
        }
        return input.contains { $0 < 0x20 || $0 == 0x7F }
    }

    private static func badRequest(_ message: String) -> HTTPResponse {
        var response = HTTPResponse.text("Bad Request: \(message)\n", status: .badRequest)
        response.headers["Connection"] = "close"
        return response
    }

    /// 503 with `Retry-After`, for a request the server has no room for right now.
    static func busyResponse() -> HTTPResponse {
        var response = HTTPResponse.text(
            "The server is busy; try again in a few seconds.\n", status: .serviceUnavailable)
        response.headers["Retry-After"] = "5"
        response.headers["Connection"] = "close"
        return response
    }

    /// Asks the responder for an immediate answer on this connection thread; failing that, runs the
    /// responder in a task and blocks this connection thread until it answers, then queues the
    /// response. Returns `.NO` (dropping the connection) if the server gives up on the handler or the
    /// client hangs up while it works; the handler's task is then cancelled, so work nobody will read
    /// (a slow search, say) stops at its next cancellation check.
    private func respond(to request: HTTPRequest, exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        if let immediate = responder.respondImmediately(to: request) {
            return queue(immediate, for: request.method, exchange: exchange, on: connection)
        }
        let slot = ResponseSlot()
        guard register(slot) else { return .NO }
        let responder = self.responder
        // An unstructured task is the bridge here: this is a synchronous C callback on a thread that
        // libmicrohttpd owns, and the slot below is what joins the task.
        let task = Task {
            slot.fulfill(await responder.respond(to: request))
        }
        // libmicrohttpd cannot notice a closed connection while this thread is blocked here (its
        // request-completed callback runs only after this handler returns), so the wait watches the socket.
        let response = slot.wait(watching: cmhd_connection_socket(connection))
        unregister(slot)
        guard let response else {
            task.cancel()
            return .NO
        }
        return queue(response, for: request.method, exchange: exchange, on: connection)
    }

    private func bodyTooLargeResponse() -> HTTPResponse {
        var response = HTTPResponse.text(
            "The request body is larger than the limit of \(configuration.maximumBodyBytes) bytes.\n",
            status: .contentTooLarge
        )
        if let message = configuration.bodyTooLargeMessage {
            response.headers["Content-Type"] = message.contentType
            response.body = .bytes(message.bytes)
        }
        response.headers["Connection"] = "close"
        return response
    }

    // MARK: - Responses

    /// Translates `response` into an `MHD_Response` and queues it.
    private func queue(
        _ response: HTTPResponse,
        for method: HTTPMethod,
        exchange: Exchange,
        on connection: OpaquePointer
    ) -> MHD_Result {
        guard (100...599).contains(response.status.code) else {
            record("A handler returned the invalid status \(response.status.code); sending 500 instead.")
            return queue(
                .text("Internal Server Error\n", status: .internalServerError), for: method, exchange: exchange,
                on: connection)
        }
        let made: MHDResponse?
        switch response.body {
        case .bytes(let bytes):
            if method == .head, bytes.isEmpty, let length = response.headers["Content-Length"].flatMap(UInt64.init) {
                made = MHDResponse.announcing(length: length)
            } else {
                made = MHDResponse.copying(bytes)
            }
        case .stream(let stream):
            let address = exchange.makeRequestAddressKey()
            guard tracker.acquireStream(address: address) else {
                refusals.record(.streams)
                record("Refusing a stream to \(address): the stream limit is reached (\(exchange.target)).")
                return queue(Self.busyResponse(), for: method, exchange: exchange, on: connection)
            }
            exchange.holdStreamSlot(address: address)
            made = makeStreamingResponse(stream, for: method, on: connection)
        }
        guard let made else {
            record("Could not allocate a response (status \(response.status.code)); closing the connection.")
            return .NO
        }
        for field in response.headers where !Self.managedHeaders.contains(field.name.lowercased()) {
            if !made.addHeader(field.name, field.value) {
                record("Dropped the invalid response header '\(field.name)'.")
            }
        }
        let clientMustClose = response.headers.values(for: "Connection").contains { $0.lowercased() == "close" }
        if !configuration.keepAlive || phase != .running || clientMustClose {
            _ = made.addHeader("Connection", "close")
        }
        return made.queue(on: connection, status: response.status.code)
    }

    private func makeStreamingResponse(
        _ stream: HTTPBodyStream,
        for method: HTTPMethod,
        on connection: OpaquePointer
    ) -> MHDResponse? {
        guard let channel = StreamChannel(clientSocket: cmhd_connection_socket(connection)) else { return nil }
        if let closure = register(channel) {
            channel.close(closure)
        }
        guard let response = MHDResponse.streaming(StreamRegistration(channel: channel, core: self)) else {
            unregister(channel)
            channel.close(.clientGone)
            return nil
        }
        if method == .head {
            channel.finishWithoutProducing()
        } else {
            channel.start(stream)
        }
        return response
    }

    // MARK: - Reading the request

    /// The request's header fields, in order, copied out of libmicrohttpd's memory.
    private static func headers(of connection: OpaquePointer) -> HTTPHeaders {
        var fields: [(String, String)] = []
        withUnsafeMutablePointer(to: &fields) { pointer in
            _ = MHD_get_connection_values_n(
                connection,
                .HEADER_KIND,
                { context, _, key, keyLength, value, valueLength in
                    guard let context, let key else { return .YES }
                    let fields = context.assumingMemoryBound(to: [(String, String)].self)
                    let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keyLength), as: UTF8.self)
                    let text = value.map {
                        String(decoding: UnsafeRawBufferPointer(start: $0, count: valueLength), as: UTF8.self)
                    }
                    fields.pointee.append((name, text ?? ""))
                    return .YES
                },
                pointer
            )
        }
        return HTTPHeaders(fields)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
