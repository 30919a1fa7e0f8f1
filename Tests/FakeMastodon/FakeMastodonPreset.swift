/// How a fake server behaves: the software it claims and every quirk that differs between servers
/// (mastodon-api.md §6.2). Start from a preset and change what a test needs.
package struct FakeMastodonConfiguration: Sendable {
    /// How status IDs look.
    package enum IDStyle: Sendable { case snowflake, ulid, flake }
    /// What `Idempotency-Key` does.
    package enum IdempotencyMode: Sendable { case honoured, ignored, error500OnDuplicate }
    /// How `Link` headers are written.
    package enum LinkStyle: Sendable { case mastodon, pleroma, legacy, gotosocial }
    /// How `X-RateLimit-Reset` is written.
    package enum ResetFormat: Sendable { case iso8601, unixSeconds }
    /// What DELETE answers.
    package enum DeleteAnswer: Sendable { case status, emptyArray, emptyBody }

    /// The preset's name.
    package var name: String
    /// nodeinfo `software.name` (written as given, not lowercased).
    package var software: String
    /// nodeinfo `software.version`.
    package var version: String
    /// The instance documents' `version`.
    package var instanceVersion: String
    /// The nodeinfo schemas linked from `/.well-known/nodeinfo`, in order; empty for no nodeinfo.
    package var nodeInfoSchemas: [String] = ["2.0"]
    /// Whether `/api/v2/instance` exists.
    package var hasInstanceV2 = true
    /// Whether any Mastodon API exists (`false`: every `/api/*` and `/oauth/*` answers 404).
    package var hasMastodonAPI = true
    /// `api_versions.mastodon`, if reported.
    package var apiVersion: Int?
    /// Whether limits go into v1's `configuration` (Mastodon 3.4.2+) or only `max_toot_chars`/`poll_limits`.
    package var v1HasConfiguration = true
    /// The character limit.
    package var maxCharacters = 500
    /// What a URL counts as.
    package var charactersPerURL = 23
    /// Most media per status.
    package var maxMediaAttachments = 4
    /// Poll limits: options, characters per option, min and max seconds.
    package var pollLimits = (maxOptions: 4, maxCharacters: 50, minExpiration: 300, maxExpiration: 2_629_746)
    /// Status ID style.
    package var idStyle = IDStyle.snowflake
    /// Idempotency.
    package var idempotency = IdempotencyMode.honoured
    /// Link headers.
    package var linkStyle = LinkStyle.mastodon
    /// Rate-limit reset format.
    package var resetFormat = ResetFormat.iso8601
    /// DELETE's answer.
    package var deleteAnswer = DeleteAnswer.status
    /// Whether PUT answers the status (Pixelfed: an empty body).
    package var editAnswersStatus = true
    /// Whether every status needs media (Pixelfed).
    package var requiresMedia = false
    /// Whether `/api/v2/media` exists (Pixelfed lacked it).
    package var hasMediaV2 = true
    /// Whether the streaming API's `/api/v1/streaming/user/notification` exists (404 when not).
    package var hasStreaming = true
    /// Whether `since_id` is honoured on account statuses (GoToSocial: no).
    package var supportsSinceID = true
    /// Whether a past `scheduled_at` backdates (GoToSocial).
    package var backdates = false
    /// Requests per token per 5 minutes.
    package var requestsPerFiveMinutes = 300
    /// Image uploads answer 202 and need this many checks (206) before 200; video and audio always do.
    package var mediaProcessingChecks = 2
    /// Whether images are processed asynchronously too (202).
    package var asyncImages = false

    /// Mastodon 4.5: api_versions 7, quotes, v2 instance, ISO resets.
    package static let mastodon45 = FakeMastodonConfiguration(
        name: "mastodon-4.5", software: "mastodon", version: "4.5.0", instanceVersion: "4.5.0", apiVersion: 7)
    /// Mastodon 4.0: v2 instance, no api_versions.
    package static let mastodon40 = FakeMastodonConfiguration(
        name: "mastodon-4.0", software: "mastodon", version: "4.0.2", instanceVersion: "4.0.2")
    /// GoToSocial: ULIDs, ignored idempotency, no since_id, Unix resets, 5000 characters, 25 per URL.
    package static let gotosocial: FakeMastodonConfiguration = {
        var configuration = FakeMastodonConfiguration(
            name: "gotosocial", software: "gotosocial", version: "0.19.1+git-8f2c", instanceVersion: "0.19.1+git-8f2c")
        configuration.maxCharacters = 5000
        configuration.charactersPerURL = 25
        configuration.maxMediaAttachments = 6
        configuration.pollLimits = (6, 50, 300, 2_629_746)
        configuration.idStyle = .ulid
        configuration.idempotency = .ignored
        configuration.linkStyle = .gotosocial
        configuration.resetFormat = .unixSeconds
        configuration.supportsSinceID = false
        configuration.backdates = true
        return configuration
    }()
    /// Akkoma: v1 instance only, `max_toot_chars` and `poll_limits`, flake IDs, both-cursor links.
    package static let akkoma: FakeMastodonConfiguration = {
        var configuration = FakeMastodonConfiguration(
            name: "akkoma", software: "akkoma", version: "3.10.2", instanceVersion: "2.7.2 (compatible; Akkoma 3.10.2)")
        configuration.nodeInfoSchemas = ["2.0", "2.1"]
        configuration.hasInstanceV2 = false
        configuration.v1HasConfiguration = false
        configuration.maxCharacters = 5000
        configuration.maxMediaAttachments = 1000
        configuration.pollLimits = (20, 200, 0, 31_536_000)
        configuration.idStyle = .flake
        configuration.linkStyle = .pleroma
        return configuration
    }()
    /// Pixelfed: media required, no v2 media, edits answer nothing, idempotency ignored.
    package static let pixelfed: FakeMastodonConfiguration = {
        var configuration = FakeMastodonConfiguration(
            name: "pixelfed", software: "pixelfed", version: "0.12.4",
            instanceVersion: "3.5.3 (compatible; Pixelfed 0.12.4)")
        configuration.maxCharacters = 2000
        configuration.maxMediaAttachments = 20
        configuration.idempotency = .ignored
        configuration.editAnswersStatus = false
        configuration.requiresMedia = true
        configuration.hasMediaV2 = false
        return configuration
    }()
    /// Misskey: nodeinfo 2.1 only; no Mastodon API at all.
    package static let misskey: FakeMastodonConfiguration = {
        var configuration = FakeMastodonConfiguration(
            name: "misskey", software: "misskey", version: "2025.4.0", instanceVersion: "2025.4.0")
        configuration.nodeInfoSchemas = ["2.1"]
        configuration.hasMastodonAPI = false
        configuration.hasInstanceV2 = false
        return configuration
    }()

    /// Every preset, for tests that run against each.
    package static let presets = [mastodon45, mastodon40, gotosocial, akkoma, pixelfed, misskey]
}
