/// One JSON read endpoint of the URL table (`relay-api.md` §2.4–2.15, §2.17), answered by
/// ``RelayReadAPI`` from the read model.
enum RelayReadEndpoint: Sendable, Equatable {
    /// `GET /mentions/?feed=`.
    case mentions
    /// `GET /notifications/?feed=[&type=]`.
    case notifications
    /// `GET /reactions/?feed=`.
    case reactions
    /// `GET /replies-to/?feed=`.
    case repliesTo
    /// `GET /boosts/?post=`.
    case boosts
    /// `GET /interactions/?post=`.
    case interactions
    /// `GET /replies/?post=`.
    case replies
    /// `GET /search/?q=|tag=[&page=][&perPage=]`.
    case search
    /// `GET /groups/`.
    case groups
    /// `GET /groups/{slug}/`.
    case groupMessages(slug: String)
    /// `GET /polls/[?voter=|?feed=]`.
    case polls
    /// `GET /polls/votes/?post=`.
    case pollVotes
    /// `GET /profile/?feed=`.
    case profile
    /// `GET /stats/`.
    case stats

    /// The endpoint of a decoded path, or `nil` when it is none of these.
    ///
    /// - Parameter path: The percent-decoded path, e.g. `/mentions/` or `/groups/org-social/`.
    init?(path: String) {
        switch path {
        case "/mentions/": self = .mentions
        case "/notifications/": self = .notifications
        case "/reactions/": self = .reactions
        case "/replies-to/": self = .repliesTo
        case "/boosts/": self = .boosts
        case "/interactions/": self = .interactions
        case "/replies/": self = .replies
        case "/search/": self = .search
        case "/groups/": self = .groups
        case "/polls/": self = .polls
        case "/polls/votes/": self = .pollVotes
        case "/profile/": self = .profile
        case "/stats/": self = .stats
        default:
            guard let slug = Self.groupSlug(in: path) else { return nil }
            self = .groupMessages(slug: slug)
        }
    }

    /// The name of a `/groups/<name>/` path: non-empty, without a slash (Django's `<str:…>`).
    private static func groupSlug(in path: String) -> String? {
        guard path.hasPrefix("/groups/"), path.hasSuffix("/") else { return nil }
        let name = path.dropFirst("/groups/".count).dropLast()
        return name.isEmpty || name.contains("/") ? nil : String(name)
    }
}
