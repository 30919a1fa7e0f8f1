// libFuzzer harness for what the servers make of a request head. Built by
// `scripts/fuzz --harness request-head` together with the pure HTTP types (`Sources/HTTPCore`) and
// the header readers of the feed node and the relay, as one module, so it can reach their internal API.
//
// The input is read as libmicrohttpd hands a head over: a request line (`METHOD target version`) and
// `name: value` header lines up to a blank line. For each input the harness builds the `HTTPRequest`
// and runs every reader of the head — target and query decoding, route matching, the node's feed path,
// `Range`, `If-Match`/`If-None-Match`, HTTP dates, the relay's `Accept` negotiation — and checks what
// each promises. A failed check is a `fatalError`, which libFuzzer saves as a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        line.last == "\r" ? line.dropLast() : line
    }[...]
    guard let requestLine = lines.popFirst() else { return 0 }
    let parts = requestLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
    let method = HTTPMethod(String(parts.first ?? "GET"))
    let target = parts.count > 1 ? String(parts[1]) : "/"
    var fields: [(String, String)] = []
    while let line = lines.popFirst(), !line.isEmpty {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
        fields.append((String(line[..<colon]), String(value)))
    }
    let headers = HTTPHeaders(fields)
    let request = HTTPRequest(method: method, target: target, headers: headers, remoteAddress: "127.0.0.1")

    checkTarget(request, target: target)
    checkHeaders(headers, fields: fields)
    checkRoutes(request)
    checkFeedPath(request.pathSegments)
    for field in fields {
        checkDate(field.1)
        checkRange(field.1)
        checkEntityTags([field.1])
        checkNegotiation(field.1, request: request)
    }
    return 0
}

/// Decoding the target: segments never hold a `/` that was not sent encoded, and decoding is stable.
private func checkTarget(_ request: HTTPRequest, target: String) {
    let sentEncodedSlash = target.utf8.count >= 3 && target.lowercased().contains("%2f")
    if !sentEncodedSlash, request.pathSegments.contains(where: { $0.contains("/") }) {
        fatalError("A path segment holds a '/' that the target did not encode: \(request.pathSegments)")
    }
    let again = HTTPRequest(method: request.method, target: target)
    if again.path != request.path || again.pathSegments != request.pathSegments
        || again.queryItems != request.queryItems
    {
        fatalError("Decoding the same target twice disagrees.")
    }
    // A query item's name is found by the lookup that handlers use.
    for item in request.queryItems where request.queryValue(item.name) == nil {
        fatalError("Query item '\(item.name)' is not found by queryValue.")
    }
}

/// Header lookup is ASCII case-insensitive and keeps every field.
private func checkHeaders(_ headers: HTTPHeaders, fields: [(String, String)]) {
    for (name, _) in fields {
        let values = headers.values(for: name)
        if values.isEmpty { fatalError("Header '\(name)' is not found under its own name.") }
        let upper = String(decoding: name.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
        if headers.values(for: upper) != values { fatalError("Header '\(name)' reads differently as '\(upper)'.") }
    }
}

/// The node's and the relay's route shapes: a match captures only non-empty segments.
private func checkRoutes(_ request: HTTPRequest) {
    for pattern in ["/:nick/social.org", "/social.org", "/feeds/", "/static/*", "/api/:version/:name"] {
        guard let parameters = RoutePattern(pattern).match(request.pathSegments) else { continue }
        for (name, value) in parameters where name != "*" && value.isEmpty {
            fatalError("Route \(pattern) captured an empty ':\(name)'.")
        }
    }
}

/// The node serves and writes only `social.org` or `<folder>/social.org`, never another file.
private func checkFeedPath(_ segments: [String]) {
    guard let path = FeedPath(segments: segments) else { return }
    if let folder = path.folder {
        if folder.isEmpty || folder.hasPrefix(".")
            || folder.unicodeScalars.contains(where: { $0 == "/" || $0 == "\\" || $0.value == 0 })
        {
            fatalError("The feed path '\(folder)' names a folder outside the allowed shape.")
        }
    }
    let back = HTTPRequest(method: .get, target: path.urlPath)
    guard FeedPath(segments: back.pathSegments) == path else {
        fatalError("The feed path \(path) does not read back from its URL path \(path.urlPath).")
    }
}

/// An HTTP date that reads is written and read back as the same instant.
private func checkDate(_ value: String) {
    guard let seconds = HTTPDate.parse(value) else { return }
    let written = HTTPDate.format(seconds)
    guard HTTPDate.parse(written) == seconds else {
        fatalError("HTTP date \(seconds) written as '\(written)' does not read back.")
    }
}

/// A satisfiable range lies inside the representation.
private func checkRange(_ value: String) {
    for length in [0, 1, 7, 1000, Int(Int32.max)] {
        if case .partial(let range) = ByteRangeRequest(header: value, length: length) {
            guard range.lowerBound >= 0, range.upperBound < length, range.lowerBound <= range.upperBound else {
                fatalError("Range '\(value)' gave \(range) for a representation of \(length) bytes.")
            }
        }
    }
}

/// Entity-tag lists: a strong match is also a weak match.
private func checkEntityTags(_ values: [String]) {
    guard let condition = EntityTagCondition(fieldValues: values) else { return }
    let candidates = ["\"a\"", "\"\"", "\"abc-123\""]
    if condition.strongMatch(in: candidates), condition.weakMatch(in: candidates) == nil {
        fatalError("A strong match is not a weak match for \(values).")
    }
}

/// The relay's negotiation: an indent is within DRF's 0…8.
private func checkNegotiation(_ value: String, request: HTTPRequest) {
    let format = request.queryValue("format") ?? ""
    if case .json(let indent?) = RelayContentNegotiation(accept: value, format: format), !(0...8).contains(indent) {
        fatalError("Accept '\(value)' asked for indent \(indent), outside 0…8.")
    }
}
