import Gzip
import HTTPCore
import OrgSocial
import OrgSocialHTML
import Synchronization

/// Answers a browser's `GET` of a feed with the feed's web page (``FeedPage``), and serves the page's
/// stylesheet.
///
/// A page is derived from one version of the file, so its entity tag is the file's with the page named
/// inside the quotes (`"<sha-256>-html-p2"`): `If-None-Match` gives 304 until the file changes.
/// Rendered pages are kept per feed until the file changes, so a busy page costs one parse and one
/// render per version. Responses carry a Content-Security-Policy that allows no script at all.
final class FeedPageHandler: Sendable {
    /// The headers of every page and of the stylesheet, besides the caching ones.
    static let securityHeaders: HTTPHeaders = [
        "Content-Security-Policy":
            "default-src 'none'; img-src http: https: data:; style-src 'self'; base-uri 'none'; "
            + "form-action 'none'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "strict-origin-when-cross-origin",
    ]
    /// Bumped when the page's markup changes, so that caches do not keep pages of an older renderer.
    static let rendererVersion = 1
    /// How many feeds' pages are kept.
    static let cachedFeeds = 64

    /// `Cache-Control` of the pages (the same as the feed files').
    let cacheControl: String
    /// Pages rendered from the current version of each feed.
    private let cache = Mutex<[String: CachedFeed]>([:])

    /// Makes a handler.
    init(cacheControl: String) {
        self.cacheControl = cacheControl
    }

    /// The page `selection` of the feed whose current version is `snapshot`, or a 404 page; `nil` when
    /// the page is not cached and `rendersPages` is off (rendering is then left to a Swift task, so that
    /// a big feed never holds up the connection's thread).
    func respond(
        to request: HTTPRequest, feed: FeedPath, snapshot: FeedSnapshot, selection: FeedPage.Selection,
        rendersPages: Bool
    ) -> HTTPResponse? {
        let usesGzip = AcceptEncoding.allowsGzip(request.headers["Accept-Encoding"])
        let found: RenderedPage?
        if let hit = cachedPage(of: feed, snapshot: snapshot, selection: selection, gzip: usesGzip) {
            found = hit
        } else if rendersPages {
            found = render(feed, snapshot: snapshot, selection: selection, gzip: usesGzip)
        } else {
            return nil
        }
        guard let page = found else { return Self.notFoundPage(selection) }
        let tag = usesGzip ? page.gzipEntityTag : page.entityTag
        var headers = Self.securityHeaders
        headers.add("ETag", tag)
        headers.add("Last-Modified", snapshot.lastModified)
        headers.add("Cache-Control", cacheControl)
        headers.add("Vary", "Accept, Accept-Encoding")
        if Self.matches(request, tag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", "text/html; charset=utf-8")
        if usesGzip, let gzipBytes = page.gzipBytes {
            headers.add("Content-Encoding", "gzip")
            return HTTPResponse(status: .ok, headers: headers, bytes: gzipBytes)
        }
        return HTTPResponse(status: .ok, headers: headers, bytes: page.bytes)
    }

    /// `GET /orgsocial.css`: the stylesheet, cacheable for a day.
    static func stylesheet(_ request: HTTPRequest) -> HTTPResponse {
        let tag = "\"orgsocial-css-\(rendererVersion)\""
        var headers = securityHeaders
        headers.add("ETag", tag)
        headers.add("Cache-Control", "public, max-age=86400")
        if matches(request, tag) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        headers.add("Content-Type", "text/css; charset=utf-8")
        return HTTPResponse(status: .ok, headers: headers, bytes: Array(FeedPageStylesheet.css.utf8))
    }

    /// Whether the request's `If-None-Match` names `tag` (weak comparison), so a 304 answers it.
    private static func matches(_ request: HTTPRequest, _ tag: String) -> Bool {
        EntityTagCondition(fieldValues: request.headers.values(for: "If-None-Match"))?.weakMatch(in: [tag]) != nil
    }

    /// A small page for a page or post that does not exist, or a `page`/`post` parameter that names
    /// nothing.
    static func notFoundPage(_ selection: FeedPage.Selection?) -> HTTPResponse {
        let what =
            switch selection {
            case .post: "This feed has no public post with that ID."
            case .page: "This feed has no page with that number."
            case .all, nil: "Nothing here."
            }
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Not found</title><link rel="stylesheet" href="\(FeedPageStylesheet.path)"></head>
            <body><main><p>\(what) <a href="?">See the feed</a>.</p></main></body></html>

            """
        var headers = securityHeaders
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Vary", "Accept, Accept-Encoding")
        return HTTPResponse(status: .notFound, headers: headers, bytes: Array(html.utf8))
    }

    // MARK: - Rendering and the cache

    /// The page as rendered before from this version of the feed (with its gzip form when asked for).
    private func cachedPage(
        of feed: FeedPath, snapshot: FeedSnapshot, selection: FeedPage.Selection, gzip: Bool
    ) -> RenderedPage? {
        cache.withLock { entries in
            guard let entry = entries[feed.relativePath], entry.entityTag == snapshot.entityTag,
                let hit = entry.pages[selection], !gzip || hit.gzipBytes != nil
            else { return nil }
            return hit
        }
    }

    /// Renders the page now and keeps it, or `nil` when the selection names nothing.
    private func render(
        _ feed: FeedPath, snapshot: FeedSnapshot, selection: FeedPage.Selection, gzip: Bool
    ) -> RenderedPage? {
        let key = feed.relativePath
        let cached: CachedFeed? = cache.withLock { entries in
            guard let entry = entries[key], entry.entityTag == snapshot.entityTag else { return nil }
            return entry
        }
        let parsed = cached?.feed ?? Feed(bytes: snapshot.bytes)
        let document = FeedPage(feed: parsed, stylesheet: .linked(FeedPageStylesheet.path), orgFileHref: "?format=org")
        guard let html = cached?.pages[selection]?.bytes ?? document.html(for: selection).map({ Array($0.utf8) })
        else { return nil }
        let tag = Self.entityTag(of: snapshot, selection: selection)
        var rendered = RenderedPage(bytes: html, entityTag: tag, gzipEntityTag: String(tag.dropLast()) + "-gzip\"")
        if gzip {
            rendered.gzipBytes = try? GzipCodec.compress(html)
        }
        cache.withLock { entries in
            var entry =
                entries[key].flatMap { $0.entityTag == snapshot.entityTag ? $0 : nil }
                ?? CachedFeed(entityTag: snapshot.entityTag, feed: parsed, pages: [:])
            if entry.pages.count >= 16 { entry.pages.removeAll() }
            entry.pages[selection] = rendered
            if entries[key] == nil, entries.count >= Self.cachedFeeds, let victim = entries.keys.first {
                entries[victim] = nil
            }
            entries[key] = entry
        }
        return rendered
    }

    /// The page's tag: the file's digest, the renderer version and the selection inside the quotes.
    static func entityTag(of snapshot: FeedSnapshot, selection: FeedPage.Selection) -> String {
        let digest = snapshot.entityTag.dropFirst().dropLast()
        let named =
            switch selection {
            case .page(let number): "p\(number)"
            case .post(let id): "post-" + String(fnv1a(id), radix: 16)
            case .all: "all"
            }
        return "\"\(digest)-html\(rendererVersion)-\(named)\""
    }

    /// FNV-1a, 64 bits: a hash that is the same in every process (unlike `Hasher`), for tags.
    private static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}

/// The pages rendered from one version of a feed.
private struct CachedFeed: Sendable {
    /// The version's tag.
    let entityTag: String
    /// The parsed feed.
    let feed: Feed
    /// The pages rendered so far.
    var pages: [FeedPage.Selection: RenderedPage]
}

/// One rendered page and its tags.
private struct RenderedPage: Sendable {
    /// The HTML.
    let bytes: [UInt8]
    /// The tag of the identity representation.
    let entityTag: String
    /// The tag of the gzip representation.
    let gzipEntityTag: String
    /// The gzip encoding, once a client has asked for it.
    var gzipBytes: [UInt8]?
}
