import Foundation
import HTTPCore

extension TootClient {
    /// Posts a status (`POST /api/v1/statuses`, JSON) with an `Idempotency-Key`: keep the same key for
    /// every retry of the same post, so a retry after a lost answer returns the first status instead of
    /// posting twice. The client itself retries a lost answer or a 5xx with the same key, except on a
    /// server known (``server``) to ignore the key (``PlatformFeature/idempotencyKey``): there the error is
    /// thrown at once, and the caller checks the account's latest statuses before posting again.
    /// - Parameters:
    ///   - draft: the status.
    ///   - idempotencyKey: a key unique to this post, such as a UUID or the Org post's ID.
    /// - Returns: the status.
    /// - Throws: ``TootClientError/validationFailed(url:message:fieldErrors:)`` with the server's reason;
    ///   ``TootClientError/unsupported(feature:platform:)`` when the configured server lacks what the draft
    ///   needs (polls, quotes, backdating, text-only posts).
    public func postStatus(_ draft: StatusDraft, idempotencyKey: String) async throws -> Status {
        try await postStatusRaw(draft, idempotencyKey: idempotencyKey).value
    }

    /// ``postStatus(_:idempotencyKey:)`` with the response's status and headers.
    /// - Parameters:
    ///   - draft: the status.
    ///   - idempotencyKey: the key.
    /// - Returns: the response.
    /// - Throws: ``TootClientError``.
    public func postStatusRaw(_ draft: StatusDraft, idempotencyKey: String) async throws -> TootResponse<Status> {
        if draft.poll != nil { try require(.polls) }
        if draft.quotedStatusID != nil { try require(.quotePosts) }
        if draft.scheduledAt != nil { try require(.backdating) }
        if draft.mediaIDs.isEmpty { try require(.textOnlyPosts) }
        var request = TootRequest(
            method: .post, path: ["api", "v1", "statuses"], body: .json(draft.json(editing: false)))
        request.headers["Idempotency-Key"] = idempotencyKey
        request.mayRepeat = server?.platform.supports(.idempotencyKey) ?? true
        return try await fetch(request)
    }

    /// One status (`GET /api/v1/statuses/:id`); ``TootClientError/notFound(url:message:)`` once deleted.
    /// - Parameter id: the local ID.
    /// - Returns: the status.
    /// - Throws: ``TootClientError``.
    public func status(id: String) async throws -> Status {
        try await fetch(TootRequest(method: .get, path: ["api", "v1", "statuses", id])).value
    }

    /// Several statuses at once (`GET /api/v1/statuses?id[]=…`, Mastodon 4.3+); missing ones are left out.
    /// - Parameter ids: the local IDs (the server takes at most 100).
    /// - Returns: the statuses that still exist.
    /// - Throws: ``TootClientError``.
    public func statuses(ids: [String]) async throws -> [Status] {
        try require(.statusBatch)
        return try await fetch(
            TootRequest(method: .get, path: ["api", "v1", "statuses"], query: ids.map { ("id[]", $0) })
        )
        .value
    }

    /// The text as typed (`GET /api/v1/statuses/:id/source`): the best source for the author's own posts.
    /// - Parameter id: the local ID.
    /// - Returns: the source.
    /// - Throws: ``TootClientError``.
    public func statusSource(id: String) async throws -> StatusSource {
        try require(.statusSource)
        return try await fetch(TootRequest(method: .get, path: ["api", "v1", "statuses", id, "source"])).value
    }

    /// The thread around a status (`GET /api/v1/statuses/:id/context`).
    /// - Parameter id: the local ID.
    /// - Returns: ancestors and descendants.
    /// - Throws: ``TootClientError``.
    public func statusContext(id: String) async throws -> StatusContext {
        try await fetch(TootRequest(method: .get, path: ["api", "v1", "statuses", id, "context"])).value
    }

    /// Edits a status (`PUT /api/v1/statuses/:id`). The server removes media and a poll the edit leaves
    /// out: build the draft with ``StatusDraft/edit(of:text:spoilerText:now:)`` to keep them. When the
    /// answer is not a status (Pixelfed), the status is read again.
    /// - Parameters:
    ///   - id: the local ID.
    ///   - draft: the new state.
    /// - Returns: the edited status.
    /// - Throws: ``TootClientError``.
    public func editStatus(id: String, _ draft: StatusDraft) async throws -> Status {
        try require(.edits)
        let raw = try await send(
            TootRequest(method: .put, path: ["api", "v1", "statuses", id], body: .json(draft.json(editing: true))))
        if let status = try? Self.decode(Status.self, from: raw.value, url: raw.url) { return status }
        return try await status(id: id)
    }

    /// Deletes a status (`DELETE /api/v1/statuses/:id`).
    /// - Parameters:
    ///   - id: the local ID.
    ///   - deleteMedia: also delete its media at once (Mastodon API version 4).
    /// - Returns: the deleted status with its source `text`, or `nil` when the server answers none
    ///   (Friendica's `[]`, Mitra's empty body).
    /// - Throws: ``TootClientError/notFound(url:message:)`` when it is gone or not this account's.
    @discardableResult
    public func deleteStatus(id: String, deleteMedia: Bool = false) async throws -> Status? {
        if deleteMedia { try require(.deleteMedia) }
        let raw = try await send(
            TootRequest(
                method: .delete, path: ["api", "v1", "statuses", id],
                query: deleteMedia ? [("delete_media", "true")] : []))
        return try? Self.decode(Status.self, from: raw.value, url: raw.url)
    }
}
