internal import CMicroHTTPD

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
            exchange.markCountedInFlight()
            requestStarted()
            let token = method.map { String(cString: $0) } ?? "GET"
            return beginRequest(exchange, method: HTTPMethod(token), on: connection)
        case .receivingBody where uploadDataSize.pointee > 0:
            let piece = UnsafeRawBufferPointer(start: uploadData, count: uploadDataSize.pointee)
            let outcome = exchange.receive(piece, limit: configuration.maximumBodyBytes)
            uploadDataSize.pointee = 0
            guard outcome != .overflow else {
                record("Closing a connection whose request body kept coming past the limit (\(exchange.target)).")
                return .NO
            }
            return .YES
        case .receivingBody:
            exchange.markResponded()
            if exchange.isOverLimit {
                return queue(bodyTooLargeResponse(), for: exchange.method, on: connection)
            }
            return respond(to: exchange.makeRequest(), on: connection)
        case .responded:
            return .NO
        }
    }

    private func beginRequest(_ exchange: Exchange, method: HTTPMethod, on connection: OpaquePointer) -> MHD_Result {
        let headers = Self.headers(of: connection)
        let limit = configuration.maximumBodyBytes
        var expectedBodyBytes = 0
        if let declared = headers["Content-Length"], !declared.isEmpty, declared.utf8.allSatisfy(Self.isDigit) {
            // All digits but too large for Int is over any limit too.
            guard let length = Int(declared), length <= limit else {
                exchange.markResponded()
                return queue(bodyTooLargeResponse(), for: method, on: connection)
            }
            expectedBodyBytes = length
        }
        let remoteAddress = cmhd_connection_client_address(connection).map(SocketAddress.text(of:)) ?? ""
        exchange.begin(method: method, headers: headers, remoteAddress: remoteAddress, expectedBody: expectedBodyBytes)
        return .YES
    }

    /// Asks the responder for an immediate answer on this connection thread; failing that, runs the
    /// responder in a task and blocks this connection thread until it answers, then queues the
    /// response. Returns `.NO` (dropping the connection) if the server gives up on the handler.
    private func respond(to request: HTTPRequest, on connection: OpaquePointer) -> MHD_Result {
        if let immediate = responder.respondImmediately(to: request) {
            return queue(immediate, for: request.method, on: connection)
        }
        let slot = ResponseSlot()
        guard register(slot) else { return .NO }
        let responder = self.responder
        // An unstructured task is the bridge here: this is a synchronous C callback on a thread that
        // libmicrohttpd owns, and the slot below is what joins the task.
        let task = Task {
            slot.fulfill(await responder.respond(to: request))
        }
        let response = slot.wait()
        unregister(slot)
        guard let response else {
            task.cancel()
            return .NO
        }
        return queue(response, for: request.method, on: connection)
    }

    private func bodyTooLargeResponse() -> HTTPResponse {
        var response = HTTPResponse.text(
            "The request body is larger than the limit of \(configuration.maximumBodyBytes) bytes.\n",
            status: .contentTooLarge
        )
        response.headers["Connection"] = "close"
        return response
    }

    // MARK: - Responses

    /// Translates `response` into an `MHD_Response` and queues it.
    private func queue(_ response: HTTPResponse, for method: HTTPMethod, on connection: OpaquePointer) -> MHD_Result {
        guard (100...599).contains(response.status.code) else {
            record("A handler returned the invalid status \(response.status.code); sending 500 instead.")
            return queue(.text("Internal Server Error\n", status: .internalServerError), for: method, on: connection)
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
