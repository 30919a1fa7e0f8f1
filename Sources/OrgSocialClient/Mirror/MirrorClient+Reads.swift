import Foundation

// One method per mirror read the reading commands use (`mirror-api.md` §3).

extension MirrorClient {
    /// Posts with text, newest first (`GET posts/`, §3.1).
    /// - Parameters:
    ///   - scope: every post, or those of the given feeds.
    ///   - languages: only posts in these languages (`lang=`); all when empty.
    ///   - sinceDays: only posts of the last so many days, if given.
    ///   - page: the page, from 1.
    ///   - perPage: the page size (mirrors cap it at 100); the mirror's default when `nil`.
    /// - Returns: one page.
    /// - Throws: ``OrgSocialClientError``.
    public func posts(
        _ scope: MirrorPostScope, languages: [String] = [], sinceDays: Int? = nil, page: Int = 1, perPage: Int? = nil
    ) async throws -> MirrorPage<MirrorPost> {
        var query: [(String, String?)]
        switch scope {
        case .all: query = [("scope", "all")]
        case .following(let feeds): query = feeds.map { ("following", $0) }
        }
        query += languages.map { ("lang", $0) }
        query += [("sinceDays", sinceDays.map(String.init))] + Self.paging(page: page, perPage: perPage)
        return try await self.page("posts/", query: query)
    }

    /// One feed's posts with text, newest first (`GET timeline/?feed=`, §3.10).
    /// - Parameters:
    ///   - feedURL: the feed.
    ///   - page: the page, from 1.
    ///   - perPage: the page size; the mirror's default when `nil`.
    /// - Returns: one page.
    /// - Throws: ``OrgSocialClientError``.
    public func timeline(of feedURL: String, page: Int = 1, perPage: Int? = nil) async throws
        -> MirrorPage<MirrorPost>
    {
        try await self.page("timeline/", query: [("feed", feedURL)] + Self.paging(page: page, perPage: perPage))
    }

    /// Posts matching a text or a tag, newest first (`GET search/?q=|tag=`, §3.2).
    /// - Parameters:
    ///   - query: the text or the tag.
    ///   - page: the page, from 1.
    ///   - perPage: the page size; the mirror's default when `nil`.
    /// - Returns: one page.
    /// - Throws: ``OrgSocialClientError``.
    public func search(_ query: RelaySearchQuery, page: Int = 1, perPage: Int? = nil) async throws
        -> MirrorPage<MirrorPost>
    {
        let term: (String, String?)
        switch query {
        case .text(let text): term = ("q", text)
        case .tag(let tag): term = ("tag", tag)
        }
        return try await self.page("search/", query: [term] + Self.paging(page: page, perPage: perPage))
    }

    /// A feed's notifications, newest first (`GET notifications/?feed=[&type=]`, §3.11).
    /// - Parameters:
    ///   - feedURL: the feed.
    ///   - type: only this kind, or all when `nil`.
    ///   - page: the page, from 1.
    ///   - perPage: the page size; the mirror's default when `nil`.
    /// - Returns: one page.
    /// - Throws: ``OrgSocialClientError``.
    public func notifications(
        for feedURL: String, type: RelayNotificationType? = nil, page: Int = 1, perPage: Int? = nil
    ) async throws -> MirrorPage<MirrorNotification> {
        try await self.page(
            "notifications/",
            query: [("feed", feedURL), ("type", type?.rawValue)] + Self.paging(page: page, perPage: perPage))
    }

    /// The mirror's groups (`GET groups/`, §3.3).
    /// - Returns: the groups, in the mirror's order.
    /// - Throws: ``OrgSocialClientError``.
    public func groups() async throws -> [MirrorGroup] {
        let page: MirrorPage<MirrorGroup> = try await self.page("groups/")
        return page.items
    }

    /// A group's posts, replies included, newest first (`GET groups/<slug>/`, §3.4).
    /// - Parameters:
    ///   - slug: the group's slug (percent-encoded in the path).
    ///   - page: the page, from 1.
    ///   - perPage: the page size; the mirror's default when `nil`.
    /// - Returns: one page.
    /// - Throws: ``OrgSocialClientError`` (a 404 problem for a group the mirror does not have).
    public func posts(inGroup slug: String, page: Int = 1, perPage: Int? = nil) async throws
        -> MirrorPage<MirrorPost>
    {
        try await self.page(
            "groups/\(RelayClient.percentEncoded(slug))/", query: Self.paging(page: page, perPage: perPage))
    }

    /// A post's thread (`GET thread/?post=`, §3.5).
    /// - Parameter postURL: `<feed>#<id>`.
    /// - Returns: the tree and the post it is about.
    /// - Throws: ``OrgSocialClientError``.
    public func thread(of postURL: String) async throws -> MirrorThread {
        try await get("thread/", query: [("post", postURL)])
    }

    /// A feed's profile (`GET profile/?feed=`, §3.9).
    /// - Parameter feedURL: the feed.
    /// - Returns: the profile.
    /// - Throws: ``OrgSocialClientError`` (a 404 problem for a feed the mirror has not read).
    public func profile(of feedURL: String) async throws -> MirrorProfile {
        try await get("profile/", query: [("feed", feedURL)])
    }
}
