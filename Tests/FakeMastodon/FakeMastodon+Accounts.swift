import Foundation
import HTTPCore
import Synchronization

extension FakeMastodon {
    /// `GET /api/v1/accounts/verify_credentials`: 401 for a bad token, 403 without `read:accounts`/`profile`.
    func verifyCredentials(_ call: FakeCall) -> HTTPResponse {
        switch requireUser(call, scope: "read:accounts") {
        case .failure(let refusal): return refusal.response
        case .success(let token):
            let account = state.withLock { $0.accounts[token.accountID ?? ""] } ?? user
            return Self.json(render(account, withSource: true))
        }
    }

    /// `GET /api/v1/accounts/lookup?acct=`.
    func lookup(_ call: FakeCall) -> HTTPResponse {
        let acct = call.parameters.string("acct") ?? ""
        guard let account = state.withLock({ $0.accounts.values.first { $0.acct == acct } }) else {
            return Self.error("Record not found", status: .notFound)
        }
        return Self.json(render(account))
    }

    /// The order IDs sort in: by length, then text (all generated styles grow that way).
    static func key(_ id: String) -> (Int, String) { (id.count, id) }

    /// One page of `items` (newest first) for the cursors in `parameters`, and the `Link` header for it.
    /// - Parameters:
    ///   - items: the IDs, any order.
    ///   - parameters: `max_id`, `min_id`, `since_id`, `limit`.
    ///   - path: the path for the links.
    ///   - keep: the filter query items repeated in the links.
    ///   - postFilter: GoToSocial's filtering after the page is cut (short pages), or `nil`.
    /// - Returns: the page's IDs, newest first, and the `Link` header (`nil` for an empty page).
    func page(
        _ items: [String], _ parameters: FakeRequestParameters, path: String, keep: [(String, String)],
        postFilter: ((String) -> Bool)? = nil
    ) -> (ids: [String], link: String?) {
        let limit = min(40, max(1, parameters.int("limit") ?? 20))
        var candidates = items.sorted { Self.key($0) > Self.key($1) }
        if let maxID = parameters.string("max_id") { candidates = candidates.filter { Self.key($0) < Self.key(maxID) } }
        var ids: [String]
        if let minID = parameters.string("min_id") {
            let above = candidates.filter { Self.key($0) > Self.key(minID) }
            ids = Array(above.suffix(limit))
        } else if let sinceID = parameters.string("since_id"), configuration.supportsSinceID {
            ids = Array(candidates.filter { Self.key($0) > Self.key(sinceID) }.prefix(limit))
        } else {
            ids = Array(candidates.prefix(limit))
        }
        let cut = ids
        if let postFilter { ids = ids.filter(postFilter) }
        guard let newest = cut.first, let oldest = cut.last else { return ([], nil) }
        func link(_ cursors: [(String, String)], _ rel: String) -> String {
            let query = (keep + [("limit", String(limit))] + cursors).map { "\($0.0)=\($0.1)" }.joined(separator: "&")
            return "<http://\(host)\(path)?\(query)>; rel=\"\(rel)\""
        }
        var links: [String] = []
        let full = cut.count == limit
        switch configuration.linkStyle {
        case .mastodon:
            if full { links.append(link([("max_id", oldest)], "next")) }
            links.append(link([("min_id", newest)], "prev"))
        case .legacy:
            if full { links.append(link([("max_id", oldest)], "next")) }
            links.append(link([("since_id", newest)], "prev"))
        case .pleroma:
            links.append(link([("max_id", oldest), ("min_id", newest)], "next"))
            links.append(link([("max_id", oldest), ("min_id", newest)], "prev"))
        case .gotosocial:
            links.append(link([("max_id", oldest)], "next"))
            links.append(link([("min_id", newest)], "prev"))
        }
        return (ids, links.joined(separator: ", "))
    }

    /// `GET /api/v1/accounts/:id/statuses`: newest first, exclusive cursors, filters, `Link`.
    func accountStatuses(_ call: FakeCall, accountID: String) -> HTTPResponse {
        let parameters = call.parameters
        return state.withLock { storage -> HTTPResponse in
            guard storage.accounts[accountID] != nil else { return Self.error("Record not found", status: .notFound) }
            let excludeReplies = parameters.bool("exclude_replies") == true
            let excludeReblogs = parameters.bool("exclude_reblogs") == true
            let pinned = parameters.bool("pinned") == true
            let snapshot = storage.statuses
            let passes: (String) -> Bool = { id in
                guard let status = snapshot[id] else { return false }
                if excludeReblogs, status.reblogOf != nil { return false }
                if excludeReplies, status.inReplyToID != nil, status.inReplyToAccountID != accountID { return false }
                if pinned, !status.pinned { return false }
                return true
            }
            let mine = storage.statuses.values.filter { $0.accountID == accountID }.map(\.id)
            var keep: [(String, String)] = []
            if excludeReplies { keep.append(("exclude_replies", "true")) }
            if excludeReblogs { keep.append(("exclude_reblogs", "true")) }
            if pinned { keep.append(("pinned", "true")) }
            let postFiltering = configuration.linkStyle == .gotosocial
            let (ids, link) = page(
                postFiltering ? mine : mine.filter(passes), parameters, path: "/api/v1/accounts/\(accountID)/statuses",
                keep: keep, postFilter: postFiltering ? passes : nil)
            var response = Self.json(
                .array(
                    ids.compactMap { storage.statuses[$0] }.map {
                        render($0, in: storage, viewer: call.token?.accountID)
                    }))
            if let link { response.headers["Link"] = link }
            return response
        }
    }

    /// `GET /api/v1/notifications`: the caller's, filtered by `types[]`, paged like statuses.
    func notifications(_ call: FakeCall) -> HTTPResponse {
        guard case .success = requireUser(call, scope: "read:notifications") else {
            return Self.error("The access token is invalid", status: .unauthorized)
        }
        let types = Set(call.parameters.strings("types[]"))
        return state.withLock { storage -> HTTPResponse in
            let all = storage.notifications.values.filter { types.isEmpty || types.contains($0.type) }.map(\.id)
            let keep = types.sorted().map { ("types[]", $0) }
            let (ids, link) = page(all, call.parameters, path: "/api/v1/notifications", keep: keep)
            let rendered = ids.compactMap { storage.notifications[$0] }.map {
                render($0, in: storage, viewer: call.token?.accountID)
            }
            var response = Self.json(.array(rendered))
            if let link { response.headers["Link"] = link }
            return response
        }
    }

    /// A notification as Mastodon renders it.
    private func render(_ notification: FakeNotification, in storage: FakeMastodonStorage, viewer: String?) -> JSONValue
    {
        .object([
            ("id", .string(notification.id)), ("type", .string(notification.type)),
            ("created_at", .string(FakeClock.iso8601(notification.createdAt))),
            ("account", storage.accounts[notification.fromAccountID].map { render($0) } ?? .null),
            (
                "status",
                notification.statusID.flatMap { storage.statuses[$0] }
                    .map { render($0, in: storage, viewer: viewer) } ?? .null
            ),
        ])
    }

    /// `GET /api/v1/streaming/user/notification`: server-sent events, a `:)` comment first, then an
    /// `event: notification` for each notification made after the stream opened (looked for every 10 ms),
    /// until the client goes away or ``dropStreams()`` is called.
    func notificationStream(_ call: FakeCall) -> HTTPResponse {
        guard case .success = requireUser(call, scope: "read:notifications") else {
            return Self.error("The access token is invalid", status: .unauthorized)
        }
        let (start, generation) = state.withLock { storage in
            storage.streamsOpened += 1
            return (storage.nextSequence, storage.streamGeneration)
        }
        let viewer = call.token?.accountID
        let body = HTTPBodyStream { writer in
            try await writer.write(":)\n\n")
            var sent = start
            while !Task.isCancelled {
                let (events, current) = self.state.withLock { storage -> ([String], Int) in
                    let fresh = storage.notifications.values.filter { $0.sequence > sent }.sorted {
                        $0.sequence < $1.sequence
                    }
                    sent = fresh.last?.sequence ?? sent
                    let events = fresh.map { notification in
                        let data = String(
                            decoding: self.render(notification, in: storage, viewer: viewer).encoded(), as: UTF8.self)
                        return "event: notification\ndata: \(data)\n\n"
                    }
                    return (events, storage.streamGeneration)
                }
                if current != generation { return }
                for event in events { try await writer.write(event) }
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        return HTTPResponse(status: .ok, headers: ["Content-Type": "text/event-stream"], body: .stream(body))
    }

    // MARK: - Media

    /// `POST /api/v2/media` (202 while processing, 200 when done) or `/api/v1/media` (always 200).
    func upload(_ call: FakeCall, synchronous: Bool) -> HTTPResponse {
        let token: FakeToken
        switch requireUser(call, scope: "write:media") {
        case .failure(let refusal): return refusal.response
        case .success(let value): token = value
        }
        let parts = MultipartFormParser.parse(call.request) ?? []
        guard let file = parts.first(where: { $0.name == "file" }), let mimeType = file.contentType else {
            return Self.error("Validation failed: File can't be blank", status: .unprocessableContent)
        }
        let kind = String(mimeType.split(separator: "/").first ?? "")
        guard ["image", "video", "audio"].contains(kind) else {
            return Self.error("Validation failed: File content type is invalid", status: .unprocessableContent)
        }
        let asynchronous = !synchronous && (kind != "image" || configuration.asyncImages)
        let media = state.withLock { storage -> FakeMedia in
            storage.nextSmallID += 1
            let media = FakeMedia(
                id: String(storage.nextSmallID + 3000), type: kind, mimeType: mimeType,
                description: call.parameters.string("description"),
                checksLeft: asynchronous ? configuration.mediaProcessingChecks : 0,
                accountID: token.accountID ?? user.id)
            storage.media[media.id] = media
            return media
        }
        return Self.json(render(media), status: asynchronous ? .accepted : .ok)
    }

    /// `GET /api/v1/media/:id`: 206 for each check still processing, then 200.
    func showMedia(_ call: FakeCall, _ id: String) -> HTTPResponse {
        state.withLock { storage -> HTTPResponse in
            guard var media = storage.media[id] else { return Self.error("Record not found", status: .notFound) }
            if media.checksLeft > 0 {
                media.checksLeft -= 1
                storage.media[id] = media
                return Self.json(
                    render(
                        FakeMedia(
                            id: media.id, type: media.type, mimeType: media.mimeType, description: media.description,
                            checksLeft: 1, accountID: media.accountID)), status: .partialContent)
            }
            return Self.json(render(media))
        }
    }

    /// `PUT /api/v1/media/:id`: sets the alt text.
    func updateMedia(_ call: FakeCall, _ id: String) -> HTTPResponse {
        guard case .success = requireUser(call, scope: "write:media") else {
            return Self.error("The access token is invalid", status: .unauthorized)
        }
        return state.withLock { storage -> HTTPResponse in
            guard var media = storage.media[id] else { return Self.error("Record not found", status: .notFound) }
            if let description = call.parameters.string("description") { media.description = description }
            storage.media[id] = media
            return Self.json(render(media))
        }
    }
}
