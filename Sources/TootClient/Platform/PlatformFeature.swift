/// Something a Mastodon-API server may or may not offer; ask ``Platform/supports(_:)``.
public enum PlatformFeature: String, Sendable, Hashable, Codable, CaseIterable {
    /// Polls attached to statuses, and voting.
    case polls
    /// Editing statuses (`PUT /api/v1/statuses/:id`).
    case edits
    /// `Idempotency-Key` honoured on `POST /api/v1/statuses` (retries cannot double-post).
    case idempotencyKey
    /// Quote posts (`quoted_status_id`, Mastodon API version 7).
    case quotePosts
    /// `GET /api/v1/statuses/:id/source`: the text as typed.
    case statusSource
    /// A past `scheduled_at` backdates the status (GoToSocial's import).
    case backdating
    /// `GET /api/v1/statuses?id[]=…`: several statuses in one request.
    case statusBatch
    /// `since_id` on account statuses (GoToSocial has only `min_id` and `max_id`).
    case sinceID
    /// Text-only statuses (Pixelfed needs media on every post).
    case textOnlyPosts
    /// `content_type: text/markdown`.
    case markdown
    /// `delete_media=true` on delete (Mastodon API version 4).
    case deleteMedia
    /// `POST /api/v2/media` (asynchronous processing); `/api/v1/media` otherwise.
    case mediaV2
    /// Pinning statuses to the profile.
    case pins
    /// `POST /oauth/revoke`.
    case tokenRevocation
}
