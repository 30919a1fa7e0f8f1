public import OrgSocial
import OrgSocialText

/// A feed as a web page for people: the profile, the pinned post, then the posts newest first, each
/// with its own anchor (`#<ID>`), plus the Open Graph and Twitter-card tags that link previews read.
///
/// Everything taken from the feed is HTML-escaped (see OrgSocialText's `OrgHTMLConverter`); the page has no script,
/// so a server can forbid scripts outright with a Content-Security-Policy. Posts whose visibility is
/// `mention` are left out: the file is public, but its author asked clients not to show them to all.
public struct FeedPage: Sendable {
    /// Which posts the page shows.
    public enum Selection: Sendable, Hashable {
        /// One page of ``postsPerPage`` posts, the first being 1 (which also shows the pinned post).
        case page(Int)
        /// The post with this ID alone, with meta tags describing that post.
        case post(String)
        /// Every post on one page (for a static copy, where there is no server to page).
        case all
    }

    /// Where the stylesheet comes from.
    public enum Stylesheet: Sendable, Hashable {
        /// A `<link>` to this URL (the node serves ``FeedPageStylesheet/css`` there).
        case linked(String)
        /// A `<style>` element holding the stylesheet (a page that must stand alone).
        case embedded
    }

    /// How many posts a page holds.
    public static let postsPerPage = 50

    /// The feed shown.
    public let feed: Feed
    /// Where the stylesheet comes from.
    public let stylesheet: Stylesheet
    /// The link to the Org file itself (for clients and for people who want the source).
    public let orgFileHref: String

    /// Makes a page of `feed`.
    /// - Parameters:
    ///   - feed: the feed to show.
    ///   - stylesheet: where the stylesheet comes from.
    ///   - orgFileHref: the link to the Org file (`?format=org` on the node, the file's name for a copy).
    public init(feed: Feed, stylesheet: Stylesheet, orgFileHref: String) {
        self.feed = feed
        self.stylesheet = stylesheet
        self.orgFileHref = orgFileHref
    }

    /// The posts a visitor sees, in page order: newest first, those without a readable date last.
    public var visiblePosts: [Post] {
        feed.postsSortedByDate(newestFirst: true).filter { $0.visibility != .mention }
    }

    /// How many pages of ``postsPerPage`` the visible posts fill (at least one).
    public var pageCount: Int { Self.pageCount(of: visiblePosts.count) }

    /// How many pages `postCount` posts fill (at least one).
    static func pageCount(of postCount: Int) -> Int {
        max(1, (postCount + postsPerPage - 1) / postsPerPage)
    }

    /// The post a `?post=` value names. The page's own links send an ID's `+` as `%2B`, but a link typed
    /// or pasted by hand (`?post=2026-01-01T10:00:00+0000`) sends it as it is, and a query's `+` decodes as
    /// a space: an ID not found as given is looked up again with its spaces read as `+` (a post ID never
    /// holds a space where a timestamp's offset sign goes), so both spellings find the post.
    /// - Parameters:
    ///   - id: the decoded query value.
    ///   - posts: the posts the page shows.
    /// - Returns: The post, or `nil` when neither spelling names one.
    static func post(withQueryID id: String, in posts: [Post]) -> Post? {
        if let post = posts.first(where: { $0.id == id }) { return post }
        guard id.contains(" ") else { return nil }
        let plus = String(id.map { $0 == " " ? "+" : $0 })
        return posts.first { $0.id == plus }
    }

    /// The HTML document for `selection`, or `nil` when it names a page past the last or a post the
    /// feed does not show.
    /// - Parameter selection: which posts to show.
    /// - Returns: The whole document, from `<!DOCTYPE html>` on.
    public func html(for selection: Selection) -> String? {
        let posts = visiblePosts
        let pinnedID = feed.profile.pinned
        let pinned = pinnedID.flatMap { id in posts.first { $0.id == id } }
        let shown: [Post]
        var navigation = ""
        let head: String
        switch selection {
        case .page(let number):
            guard number >= 1, number <= Self.pageCount(of: posts.count) else { return nil }
            let rest = posts.filter { pinned == nil || $0.id != pinnedID }
            let start = (number - 1) * Self.postsPerPage
            let page = Array(rest[min(start, rest.count)..<min(start + Self.postsPerPage, rest.count)])
            shown = (number == 1 ? pinned.map { [$0] } ?? [] : []) + page
            navigation = pager(current: number, hasOlder: start + Self.postsPerPage < rest.count)
            head = feedHead(pinned: pinned)
        case .post(let id):
            guard let post = Self.post(withQueryID: id, in: posts) else { return nil }
            shown = [post]
            navigation = "<nav class=\"pager\"><a href=\"?\">All posts</a></nav>"
            head = postHead(post)
        case .all:
            shown = pinned.map { [$0] + posts.filter { $0.id != pinnedID } } ?? posts
            head = feedHead(pinned: pinned)
        }
        let articles = shown.map { article($0, isPinned: pinned != nil && $0.id == pinnedID) }
        let language = feed.profile.languages.first.map { " lang=\"\(escape($0))\"" } ?? ""
        return """
            <!DOCTYPE html>
            <html\(language)>
            <head>
            \(head)
            \(stylesheetElement)
            </head>
            <body>
            \(profileHeader)
            <main>
            \(articles.isEmpty ? "<p class=\"empty\">No posts yet.</p>" : articles.joined(separator: "\n"))
            \(navigation)
            </main>
            <footer class="about"><p>This is an <a href="https://github.com/tanrax/org-social">Org Social</a> \
            feed: a plain-text file that Org Social clients follow. \
            <a href="\(escape(orgFileHref))" type="text/plain">The file itself</a>.</p></footer>
            </body>
            </html>

            """
    }

    // MARK: - Parts

    /// The stylesheet's `<link>` or `<style>`.
    private var stylesheetElement: String {
        switch stylesheet {
        case .linked(let href): "<link rel=\"stylesheet\" href=\"\(escape(href))\">"
        case .embedded: "<style>\n\(FeedPageStylesheet.css)</style>"
        }
    }

    /// "Newer posts" and "Older posts" links around page `current`.
    private func pager(current: Int, hasOlder: Bool) -> String {
        var links: [String] = []
        if current > 1 {
            links.append("<a rel=\"prev\" href=\"\(current == 2 ? "?" : "?page=\(current - 1)")\">Newer posts</a>")
        }
        if hasOlder {
            links.append("<a rel=\"next\" href=\"?page=\(current + 1)\">Older posts</a>")
        }
        return links.isEmpty ? "" : "<nav class=\"pager\">" + links.joined(separator: " ") + "</nav>"
    }

    /// HTML-escapes text for an element or an attribute.
    func escape(_ text: String) -> String {
        OrgHTMLConverter.escape(text)
    }
}
