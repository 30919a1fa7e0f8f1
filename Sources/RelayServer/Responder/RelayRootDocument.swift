import HTTPCore

/// The relay index `GET /` (`relay-api.md` §2.1): `data` and the `_links` object clients discover the
/// endpoints from, with every key of the reference in its order, the stale `join-group` included.
enum RelayRootDocument {
    /// One `_links` entry: key, href, method, whether templated, and an optional description.
    private typealias Link = (key: String, href: String, method: String, templated: Bool, description: String?)

    private static let links: [Link] = [
        ("self", "/", "GET", false, nil),
        ("feeds", "/feeds/", "GET", false, nil),
        ("add-feed", "/feeds/", "POST", false, nil),
        ("feed-content", "/feed-content/?feed={feed_url}", "GET", true, nil),
        ("mentions", "/mentions/?feed={feed_url}", "GET", true, nil),
        ("replies", "/replies/?post={post_url}", "GET", true, nil),
        ("notifications", "/notifications/?feed={feed_url}", "GET", true, nil),
        ("sse-notifications", "/sse/notifications/?feed={feed_url}", "GET", true, nil),
        ("sse-notifications-all", "/sse/notifications/", "GET", false, nil),
        ("reactions", "/reactions/?feed={feed_url}", "GET", true, nil),
        ("replies-to", "/replies-to/?feed={feed_url}", "GET", true, nil),
        ("boosts", "/boosts/?post={post_url}", "GET", true, nil),
        ("interactions", "/interactions/?post={post_url}", "GET", true, nil),
        ("search", "/search/?q={query}", "GET", true, nil),
        ("groups", "/groups/", "GET", false, nil),
        ("group-messages", "/groups/{group_name}/", "GET", true, nil),
        ("join-group", "/groups/{group_name}/members/?feed={feed_url}", "POST", true, nil),
        ("polls", "/polls/", "GET", false, nil),
        ("poll-votes", "/polls/votes/?post={post_url}", "GET", true, nil),
        ("profile", "/profile/?feed={feed_url}", "GET", true, nil),
        (
            "rss", "/rss.xml", "GET", false,
            "RSS feed of latest posts (supports ?tag={tag} and ?feed={feed_url} filters)"
        ),
        ("stats", "/stats/", "GET", false, nil),
        ("bridge", "/bridge/", "GET", false, nil),
        (
            "bridge-activitypub", "/bridge/activitypub/@{user}@{instance}/", "GET", true,
            "ActivityPub account as a virtual social.org feed"
        ),
        ("bridge-rss", "/bridge/rss/?url={feed_url}", "GET", true, "RSS/Atom feed as a virtual social.org feed"),
    ]

    /// The whole document.
    static let value: JSONValue = RelayJSONEnvelope.success(
        .object([("name", "Org Social Relay"), ("description", "P2P system for Org Social files")]),
        links: links.map { link in
            (
                link.key,
                RelayJSONEnvelope.link(
                    link.href, method: link.method, templated: link.templated, description: link.description)
            )
        }
    ).body

    /// The document as Django's `JsonResponse` writes it: `", "`/`": "` separators, ASCII only.
    static let bytes: [UInt8] = value.encoded(style: .python)

    /// `Content-Type` of a `JsonResponse`: no charset.
    static let contentType = "application/json"
}
