import HTTPCore
import OrgSocialHTML

/// What a `GET` of a feed asks for: the file itself (what Org Social clients get, byte for byte), or
/// the feed's web page (what a browser gets).
///
/// `?format=org` always gets the file and `?format=html` the page. Otherwise the page is sent when the
/// `Accept` header prefers `text/html` to `text/plain`: browsers send `text/html,…,*/*;q=0.8`, while
/// clients send nothing, `*/*` or `text/plain`, which all keep getting the file.
enum FeedPageRequest: Sendable, Equatable {
    /// The Org file.
    case file
    /// The page showing `selection`.
    case page(FeedPage.Selection)
    /// A page was asked for with a `page` or `post` parameter that names nothing (`page=0`, `page=x`).
    case invalid(String)

    /// Reads the request's target and `Accept` header.
    init(_ request: HTTPRequest) {
        let format = request.queryValue("format")?.lowercased()
        let wantsPage: Bool
        switch format {
        case "org", "text", "plain": wantsPage = false
        case "html": wantsPage = true
        default:
            // Every feed GET comes through here: clients (no `Accept`, `*/*`, `text/plain`) skip the parse.
            let accept = request.headers.values(for: "Accept")
            wantsPage =
                accept.contains(where: Self.mentionsHTML) && Self.prefersHTML(accept: accept.joined(separator: ","))
        }
        guard wantsPage else {
            self = .file
            return
        }
        if let post = request.queryValue("post") {
            self = post.isEmpty ? .invalid("post=") : .page(.post(post))
        } else if let page = request.queryValue("page") {
            guard let number = Int(page), number >= 1 else {
                self = .invalid("page=\(page)")
                return
            }
            self = .page(.page(number))
        } else {
            self = .page(.page(1))
        }
    }

    /// Whether `value` contains `html` in any case: what every `Accept` that can prefer HTML does.
    static func mentionsHTML(_ value: String) -> Bool {
        let html = Array("html".utf8)
        var matched = 0
        for byte in value.utf8 {
            let lowered = byte | 0x20  // ASCII letters only; a non-letter never matches "html" anyway.
            matched = lowered == html[matched] ? matched + 1 : (lowered == html[0] ? 1 : 0)
            if matched == html.count { return true }
        }
        return false
    }

    /// Whether `accept` ranks `text/html` above `text/plain` (RFC 9110, section 12.5.1: the most specific
    /// matching range gives each type its quality; a tie keeps the file).
    static func prefersHTML(accept: String) -> Bool {
        var html: (specificity: Int, quality: Double)?
        var plain: (specificity: Int, quality: Double)?
        for range in MediaRange.list(accept) {
            let quality = range.quality
            let type = range.type
            let specificity: Int
            switch type {
            case "*/*": specificity = 1
            case "text/*": specificity = 2
            case "text/html", "text/plain": specificity = 3
            default: continue
            }
            if type != "text/plain", specificity >= html?.specificity ?? 0 {
                html = (specificity, quality)
            }
            if type != "text/html", specificity >= plain?.specificity ?? 0 {
                plain = (specificity, quality)
            }
        }
        guard let html, html.quality > 0 else { return false }
        return html.quality > (plain?.quality ?? 0)
    }
}
