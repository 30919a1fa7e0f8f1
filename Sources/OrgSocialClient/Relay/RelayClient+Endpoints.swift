import Foundation

// One method per relay endpoint (`relay-api.md` §2). Each builds its URL from the discovered link (or the
// documented path) and unwraps the envelope through `RelayClient.get`.

extension RelayClient {
    // MARK: - Feeds

    /// Every feed the relay knows (`GET /feeds/`, §2.2), in its order.
    /// - Returns: the feed URLs.
    /// - Throws: ``OrgSocialClientError``.
    public func feeds() async throws -> [String] {
        try await getData("feeds", fallback: "/feeds/")
    }

    /// Registers a feed with the relay (`POST /feeds/` with `{"feed": url}`, §2.3).
    /// - Parameter feedURL: the feed's URL.
    /// - Returns: the URL as the relay echoed it and whether it is new.
    /// - Throws: ``OrgSocialClientError/relayError(url:statusCode:messages:)`` with the relay's reason
    ///   (for example "Invalid Org Social feed: URL returned status code 404").
    public func register(feedURL: String) async throws -> RelayFeedRegistration {
        struct Echo: Decodable { var feed: String? }
        let (echo, status): (Echo?, Int) = try await sendPOST("add-feed", fallback: "/feeds/", json: ["feed": feedURL])
        return RelayFeedRegistration(feed: echo?.feed ?? feedURL, isNew: status == 201)
    }

    // MARK: - About a feed

    /// Posts that mention a feed (`GET /mentions/?feed=`, §2.4), newest first by post ID.
    /// - Parameter feedURL: the feed, exactly as the relay stores it.
    /// - Returns: the post URLs.
    /// - Throws: ``OrgSocialClientError``.
    public func mentions(of feedURL: String) async throws -> [String] {
        try await getData("mentions", fallback: "/mentions/", query: [("feed", feedURL)])
    }

    /// Reactions to a feed's posts (`GET /reactions/?feed=`, §2.6).
    /// - Parameter feedURL: the feed.
    /// - Returns: the reactions.
    /// - Throws: ``OrgSocialClientError``.
    public func reactions(to feedURL: String) async throws -> [RelayReaction] {
        try await getData("reactions", fallback: "/reactions/", query: [("feed", feedURL)])
    }

    /// Direct replies to a feed's posts (`GET /replies-to/?feed=`, §2.7).
    /// - Parameter feedURL: the feed.
    /// - Returns: the replies with the posts they answer.
    /// - Throws: ``OrgSocialClientError``.
    public func repliesTo(feed feedURL: String) async throws -> [RelayReply] {
        try await getData("replies-to", fallback: "/replies-to/", query: [("feed", feedURL)])
    }

    /// A feed's notifications (`GET /notifications/?feed=[&type=]`, §2.5).
    /// - Parameters:
    ///   - feedURL: the feed.
    ///   - type: only this kind, or all when `nil`.
    /// - Returns: the notifications and their counts.
    /// - Throws: ``OrgSocialClientError``.
    public func notifications(for feedURL: String, type: RelayNotificationType? = nil) async throws
        -> RelayNotifications
    {
        let envelope: RelayEnvelope<[RelayNotification], RelayNotifications.Meta, Ignored> = try await get(
            "notifications", fallback: "/notifications/", query: [("feed", feedURL), ("type", type?.rawValue)])
        let items = try Self.require(envelope.data, from: "notifications")
        return RelayNotifications(
            items: items, total: envelope.meta?.total ?? items.count,
            byType: envelope.meta?.byType ?? RelayNotifications.Counts())
    }

    /// What the relay knows of a feed (`GET /profile/?feed=`, §2.15): its followers.
    /// - Parameter feedURL: the feed.
    /// - Returns: the profile.
    /// - Throws: ``OrgSocialClientError``.
    public func profile(of feedURL: String) async throws -> RelayProfile {
        try await getData("profile", fallback: "/profile/", query: [("feed", feedURL)])
    }

    /// A feed's file as the relay fetches it live (`GET /feed-content/?feed=`, §2.16).
    /// - Parameter feedURL: the feed.
    /// - Returns: the raw `social.org` text.
    /// - Throws: ``OrgSocialClientError`` (502 when the relay cannot fetch it).
    public func feedContent(of feedURL: String) async throws -> String {
        struct Content: Decodable { var content: String }
        let content: Content = try await getData("feed-content", fallback: "/feed-content/", query: [("feed", feedURL)])
        return content.content
    }

    // MARK: - About a post

    /// Posts that boost a post (`GET /boosts/?post=`, §2.8).
    /// - Parameter postURL: `<feed>#<id>`.
    /// - Returns: the boosting post URLs.
    /// - Throws: ``OrgSocialClientError``.
    public func boosts(of postURL: String) async throws -> [String] {
        try await getData("boosts", fallback: "/boosts/", query: [("post", postURL)])
    }

    /// Reactions, replies, boosts and ancestors of a post (`GET /interactions/?post=`, §2.9).
    /// - Parameter postURL: `<feed>#<id>`.
    /// - Returns: the interactions.
    /// - Throws: ``OrgSocialClientError``.
    public func interactions(with postURL: String) async throws -> RelayInteractions {
        struct Meta: Decodable { var parentChain: [String]? }
        let envelope: RelayEnvelope<RelayInteractions.Payload, Meta, Ignored> = try await get(
            "interactions", fallback: "/interactions/", query: [("post", postURL)])
        let data = try Self.require(envelope.data, from: "interactions")
        return RelayInteractions(
            reactions: data.reactions, replies: data.replies, boosts: data.boosts,
            parentChain: envelope.meta?.parentChain ?? [])
    }

    /// The thread below a post (`GET /replies/?post=`, §2.10) with its ancestors.
    /// - Parameter postURL: `<feed>#<id>`.
    /// - Returns: the replies as trees, the post's moods and its parent chain.
    /// - Throws: ``OrgSocialClientError``.
    public func replies(to postURL: String) async throws -> RelayThread {
        let envelope: RelayEnvelope<[RelayThreadNode], RelayThread.Meta, Ignored> = try await get(
            "replies", fallback: "/replies/", query: [("post", postURL)])
        return RelayThread(
            post: envelope.meta?.parent ?? postURL, replies: try Self.require(envelope.data, from: "replies"),
            moods: envelope.meta?.moods ?? [], parentChain: envelope.meta?.parentChain ?? [])
    }

    // MARK: - Search

    /// Searches posts by text or tag (`GET /search/?q=|tag=&page=&perPage=`, §2.11).
    /// - Parameters:
    ///   - query: the text or the tag.
    ///   - page: the page, from 1.
    ///   - perPage: the page size (the relay caps it at 50); its default (10) when `nil`.
    /// - Returns: one page of post URLs with the paging state.
    /// - Throws: ``OrgSocialClientError``.
    public func search(_ query: RelaySearchQuery, page: Int = 1, perPage: Int? = nil) async throws
        -> RelaySearchPage
    {
        var items: [(String, String?)]
        switch query {
        case .text(let text): items = [("q", text)]
        case .tag(let tag): items = [("tag", tag)]
        }
        items += [("page", String(page)), ("perPage", perPage.map(String.init))]
        let envelope: RelayEnvelope<[String], RelaySearchPage.Meta, Ignored> = try await get(
            "search", fallback: "/search/", query: items)
        let posts = try Self.require(envelope.data, from: "search")
        let meta = envelope.meta
        return RelaySearchPage(
            posts: posts, total: meta?.total ?? posts.count, totalIsEstimate: meta?.totalIsEstimate ?? false,
            page: meta?.page ?? page, perPage: meta?.perPage ?? perPage ?? 10, hasNext: meta?.hasNext ?? false,
            hasPrevious: meta?.hasPrevious ?? (page > 1))
    }

    // MARK: - Groups

    /// The relay's groups (`GET /groups/`, §2.12), from `_links.groups` when present, else from `data`.
    /// - Returns: the groups, in the relay's order.
    /// - Throws: ``OrgSocialClientError`` (404 when the relay has no groups).
    public func groups() async throws -> [RelayGroup] {
        let envelope: RelayEnvelope<[String], Ignored, RelayGroup.Links> = try await get("groups", fallback: "/groups/")
        if let groups = envelope.links?.groups, !groups.isEmpty { return groups }
        return (envelope.data ?? []).map { RelayGroup(name: $0) }
    }

    /// A group's posts as trees (`GET /groups/{slug}/`, §2.12).
    /// - Parameter group: the group (its slug is used in the path).
    /// - Returns: the posts and members.
    /// - Throws: ``OrgSocialClientError`` (404 for an unknown group).
    public func messages(in group: RelayGroup) async throws -> RelayGroupMessages {
        let envelope: RelayEnvelope<[RelayThreadNode], RelayGroupMessages.Meta, Ignored> = try await get(
            "group-messages", fallback: "/groups/{group_name}/",
            pathValues: ["group_name": group.slug, "group_slug": group.slug])
        return RelayGroupMessages(
            group: envelope.meta?.group ?? group.name, members: envelope.meta?.members ?? [],
            posts: try Self.require(envelope.data, from: "group-messages"))
    }

    // MARK: - Polls

    /// Every poll the relay knows (`GET /polls/`, §2.13), newest first.
    /// - Returns: the poll post URLs.
    /// - Throws: ``OrgSocialClientError``.
    public func polls() async throws -> [String] {
        try await getData("polls", fallback: "/polls/")
    }

    /// A feed's polls with their details (`GET /polls/?feed=`, §2.13).
    /// - Parameter feedURL: the feed.
    /// - Returns: the polls.
    /// - Throws: ``OrgSocialClientError``.
    public func polls(by feedURL: String) async throws -> [RelayPoll] {
        try await getData("polls", fallback: "/polls/", query: [("feed", feedURL)])
    }

    /// The votes on a poll, per option (`GET /polls/votes/?post=`, §2.14).
    /// - Parameter pollURL: the poll's `<feed>#<id>`.
    /// - Returns: the options with their votes.
    /// - Throws: ``OrgSocialClientError``.
    public func pollVotes(for pollURL: String) async throws -> RelayPollVotes {
        let envelope: RelayEnvelope<[RelayPollVotes.Option], RelayPollVotes.Meta, Ignored> = try await get(
            "poll-votes", fallback: "/polls/votes/", query: [("post", pollURL)])
        let options = try Self.require(envelope.data, from: "poll-votes")
        return RelayPollVotes(
            poll: envelope.meta?.poll ?? pollURL, options: options,
            totalVotes: envelope.meta?.totalVotes ?? options.reduce(0) { $0 + $1.votes.count })
    }

    // MARK: - Statistics

    /// The relay's statistics (`GET /stats/`, §2.17).
    /// - Returns: the monthly and global counts.
    /// - Throws: ``OrgSocialClientError``.
    public func stats() async throws -> RelayStats {
        try await getData("stats", fallback: "/stats/")
    }
}
