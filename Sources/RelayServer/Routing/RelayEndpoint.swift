import HTTPCore

/// One route of the relay's URL table (`relay-api.md` §1.1, §2), found from the percent-decoded path the
/// way Django's resolver does: exact paths, no slash collapsing (`//feeds/` is no route).
enum RelayEndpoint: Sendable, Equatable {
    /// `GET /`: the index with `_links` (a plain Django view).
    case root
    /// `GET /feeds/` (read model) and `POST /feeds/` (registration).
    case feeds
    /// `GET /feed-content/?feed=`: a live fetch through the gateway.
    case feedContent
    /// Another JSON endpoint the read model answers (`/mentions/`, `/groups/{slug}/`, …).
    case read(RelayReadEndpoint)
    /// `GET /rss.xml`.
    case rss
    /// `GET /sse/notifications/`.
    case events
    /// `GET /bridge/`: the bridges' index.
    case bridgeIndex
    /// `GET /bridge/activitypub/`: the bridged accounts.
    case activityPubBridges
    /// `GET /bridge/activitypub/<handle>/`: an account's virtual feed (the handle as requested).
    case activityPubBridge(handle: String)
    /// `GET /bridge/rss/`: the bridged feeds, or with `?url=` a feed's virtual feed.
    case rssBridge

    /// The route of a decoded path, or `nil` when no route matches.
    ///
    /// - Parameter path: The percent-decoded path, e.g. `/groups/org-social/`.
    init?(path: String) {
        switch path {
        case "/": self = .root
        case "/feeds/": self = .feeds
        case "/feed-content/": self = .feedContent
        case "/rss.xml": self = .rss
        case "/sse/notifications/": self = .events
        case "/bridge/": self = .bridgeIndex
        case "/bridge/activitypub/": self = .activityPubBridges
        case "/bridge/rss/": self = .rssBridge
        case _ where path.hasPrefix("/bridge/activitypub/") && path.hasSuffix("/"):
            let handle = path.dropFirst("/bridge/activitypub/".count).dropLast()
            guard !handle.isEmpty, !handle.contains("/") else { return nil }
            self = .activityPubBridge(handle: String(handle))
        default:
            guard let read = RelayReadEndpoint(path: path) else { return nil }
            self = .read(read)
        }
    }

    /// The methods the route answers, for `405` and its `Allow` header.
    var allowedMethods: [HTTPMethod] {
        self == .feeds ? [.get, .post, .head, .options] : [.get, .head, .options]
    }

    /// Whether the route is one of the bridges' (`/bridge/…`).
    var isBridge: Bool {
        switch self {
        case .bridgeIndex, .activityPubBridges, .activityPubBridge, .rssBridge: true
        default: false
        }
    }

    /// Whether the reference serves the route through Django REST framework, which negotiates the
    /// `Accept` header (406) and renders compact UTF-8 JSON.
    var negotiatesContent: Bool {
        switch self {
        case .feeds, .feedContent, .read, .bridgeIndex, .activityPubBridges: true
        case .root, .rss, .events, .activityPubBridge, .rssBridge: false
        }
    }
}

/// What the URL table says about a request before its method is looked at.
enum RelayRouteResolution: Sendable, Equatable {
    /// A route matched.
    case endpoint(RelayEndpoint)
    /// Django's `APPEND_SLASH`: the path without its slash matches nothing, with one it does; `301` here.
    case appendSlash(location: String)
    /// Nothing matches: Django's HTML 404.
    case notFound

    /// Resolves a request's path.
    ///
    /// - Parameter request: The request.
    init(_ request: HTTPRequest) {
        if let endpoint = RelayEndpoint(path: request.path) {
            self = .endpoint(endpoint)
        } else if !request.path.hasSuffix("/"), RelayEndpoint(path: request.path + "/") != nil {
            self = .appendSlash(location: Self.slashedLocation(request))
        } else {
            self = .notFound
        }
    }

    /// The request's own path with `/` appended and its query kept (an empty query is dropped), as
    /// Django's `get_full_path(force_append_slash=True)` builds it.
    private static func slashedLocation(_ request: HTTPRequest) -> String {
        var target = Substring(request.target)
        if let hash = target.firstIndex(of: "#") {
            target = target[..<hash]
        }
        var query = ""
        if let question = target.firstIndex(of: "?") {
            query = String(target[target.index(after: question)...])
            target = target[..<question]
        }
        let rawPath = target.hasPrefix("/") ? String(target) : request.path
        return rawPath + "/" + (query.isEmpty ? "" : "?" + query)
    }
}
