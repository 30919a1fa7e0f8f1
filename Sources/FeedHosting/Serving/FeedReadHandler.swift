import HTTPCore

/// Answers `GET` and `HEAD` for a feed file: conditional requests, byte ranges, gzip, caching headers.
///
/// Evaluation follows RFC 9110, section 13.2.2: `If-Match` (else `If-Unmodified-Since`) may give 412;
/// then `If-None-Match` (else `If-Modified-Since`) may give 304; then a `Range` on a 200 may give 206 or
/// 416. `If-None-Match` compares weakly against both the identity tag and the gzip tag, and a 304
/// carries the tag that matched, so a cache revalidating either representation gets its own tag back.
///
/// gzip is used when the client accepts it, the request has no `Range` (ranges always apply to the
/// identity bytes, so offsets mean the same for every client), and the feed is at least
/// ``FeedStore/minimumGzipSize`` bytes. A browser gets the feed's web page instead (see
/// ``FeedPageRequest``), so every response to a feed says `Vary: Accept, Accept-Encoding`.
struct FeedReadHandler: Sendable {
    let store: FeedStore
    let accounts: AccountDirectory
    let cacheControl: String
    /// The web pages of the feeds.
    let pages: FeedPageHandler
    let log: @Sendable (String) -> Void

    /// Answers a `GET` or `HEAD` of `feed`, rendering its web page if a browser asks for one that is not
    /// cached. (The router strips the body from `HEAD` responses.)
    func respond(to request: HTTPRequest, feed: FeedPath) -> HTTPResponse {
        // With rendering allowed there is always an answer; the fallback is never reached.
        answer(to: request, feed: feed, rendersPages: true) ?? FeedPageHandler.notFoundPage(nil)
    }

    /// Answers like ``respond(to:feed:)`` without rendering a page: `nil` when the answer is a page not
    /// rendered yet, which the caller then has rendered off the connection's thread.
    func respondWithoutRendering(to request: HTTPRequest, feed: FeedPath) -> HTTPResponse? {
        answer(to: request, feed: feed, rendersPages: false)
    }

    /// The answer, or `nil` for a page to render when `rendersPages` is off.
    private func answer(to request: HTTPRequest, feed: FeedPath, rendersPages: Bool) -> HTTPResponse? {
        if let nick = feed.folder, let target = accounts.account(nick: nick)?.redirectURL {
            return HTTPResponse(status: .movedPermanently, headers: ["Location": target])
        }
        let found: FeedSnapshot?
        do throws(FeedDirectory.AccessError) {
            found = try store.snapshot(of: feed)
        } catch {
            switch error {
            case .notServable(let reason):
                log("Not serving \(feed.relativePath): \(reason).")
                return Envelope.error("File not found", status: .notFound)
            case .system(let failure):
                log("Cannot read \(feed.relativePath): \(failure).")
                return Envelope.error("Internal server error", status: .internalServerError)
            }
        }
        guard let found else { return Envelope.error("File not found", status: .notFound) }
        guard !found.bytes.isEmpty else { return Envelope.error("File has no content", status: .notFound) }
        switch FeedPageRequest(request) {
        case .file:
            return respond(to: request, feed: feed, snapshot: found)
        case .page(let selection):
            return pages.respond(
                to: request, feed: feed, snapshot: found, selection: selection, rendersPages: rendersPages)
        case .invalid:
            return FeedPageHandler.notFoundPage(nil)
        }
    }

    private func respond(to request: HTTPRequest, feed: FeedPath, snapshot: FeedSnapshot) -> HTTPResponse {
        let rangeHeader = request.headers["Range"]
        let usesGzip =
            rangeHeader == nil && snapshot.bytes.count >= FeedStore.minimumGzipSize
            && AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
        let selectedTag = usesGzip ? snapshot.gzipEntityTag : snapshot.entityTag
        let tags = [snapshot.entityTag, snapshot.gzipEntityTag]

        // 1-2. If-Match, else If-Unmodified-Since.
        if let condition = EntityTagCondition(fieldValues: request.headers.values(for: "If-Match")) {
            if !condition.strongMatch(in: tags) {
                return preconditionFailed(snapshot)
            }
        } else if let date = request.headers["If-Unmodified-Since"].flatMap(HTTPDate.parse),
            snapshot.modifiedAt > date
        {
            return preconditionFailed(snapshot)
        }

        // 3-4. If-None-Match, else If-Modified-Since.
        if let condition = EntityTagCondition(fieldValues: request.headers.values(for: "If-None-Match")) {
            if let matched = condition.weakMatch(in: condition == .any ? [selectedTag] : tags) {
                return notModified(snapshot, entityTag: matched)
            }
        } else if let date = request.headers["If-Modified-Since"].flatMap(HTTPDate.parse),
            snapshot.modifiedAt <= date
        {
            return notModified(snapshot, entityTag: selectedTag)
        }

        // 5. Range.
        var headers = commonHeaders(snapshot, entityTag: selectedTag)
        headers.add("Content-Type", "text/plain; charset=utf-8")
        if let rangeHeader, request.method == .get || request.method == .head, isRangeStillValid(request, snapshot) {
            switch ByteRangeRequest(header: rangeHeader, length: snapshot.bytes.count) {
            case .whole:
                break
            case .partial(let range):
                headers.add("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(snapshot.bytes.count)")
                return HTTPResponse(status: .partialContent, headers: headers, bytes: Array(snapshot.bytes[range]))
            case .unsatisfiable:
                var failure = commonHeaders(snapshot, entityTag: selectedTag)
                failure.add("Content-Range", "bytes */\(snapshot.bytes.count)")
                return HTTPResponse(status: .rangeNotSatisfiable, headers: failure)
            }
        }
        if usesGzip {
            let compressed = store.withGzip(snapshot, of: feed)
            if let gzipBytes = compressed.gzipBytes {
                headers.add("Content-Encoding", "gzip")
                return HTTPResponse(status: .ok, headers: headers, bytes: gzipBytes)
            }
            // Compression failed: send the identity bytes under their own tag.
            var identity = commonHeaders(snapshot, entityTag: snapshot.entityTag)
            identity.add("Content-Type", "text/plain; charset=utf-8")
            return HTTPResponse(status: .ok, headers: identity, bytes: snapshot.bytes)
        }
        return HTTPResponse(status: .ok, headers: headers, bytes: snapshot.bytes)
    }

    /// `If-Range`: the range applies only if the client's copy is still current (a strong tag match, or
    /// exactly the `Last-Modified` date); otherwise the whole representation is sent.
    private func isRangeStillValid(_ request: HTTPRequest, _ snapshot: FeedSnapshot) -> Bool {
        guard let condition = request.headers["If-Range"]?.trimmingSpaces() else { return true }
        if condition.hasPrefix("\"") || condition.hasPrefix("W/") {
            return condition == snapshot.entityTag
        }
        return HTTPDate.parse(condition) == snapshot.modifiedAt
    }

    private func commonHeaders(_ snapshot: FeedSnapshot, entityTag: String) -> HTTPHeaders {
        [
            "ETag": entityTag,
            "Last-Modified": snapshot.lastModified,
            "Cache-Control": cacheControl,
            "Accept-Ranges": "bytes",
            "Vary": "Accept, Accept-Encoding",
        ]
    }

    /// The 304. (libmicrohttpd 0.9.75 gives every response with an empty body `Content-Length: 0`; it
    /// cannot leave the field out, and announcing the representation's length instead makes clients
    /// built on the old http-parser, such as wrk, wait for a body that never comes. Clients and caches
    /// ignore the length of a 304.)
    private func notModified(_ snapshot: FeedSnapshot, entityTag: String) -> HTTPResponse {
        HTTPResponse(status: .notModified, headers: commonHeaders(snapshot, entityTag: entityTag))
    }

    private func preconditionFailed(_ snapshot: FeedSnapshot) -> HTTPResponse {
        Envelope.error(
            "Precondition Failed: the feed has changed; its current ETag is \(snapshot.entityTag)",
            status: .preconditionFailed,
            data: .object([("etag", .string(snapshot.entityTag))]),
            headers: ["ETag": snapshot.entityTag]
        )
    }
}
