/// The software a server runs, as far as a client cares: its name and version and what it supports.
///
/// Platforms mirror how the projects forked (Fedicat's design, mastodon-api.md §3.1): ``MastoAPI`` is the
/// Mastodon client API, with defaults taken from Mastodon's version thresholds; each platform is one small
/// type that overrides only what differs, and is listed once in ``Platforms/known``.
///
/// ```swift
/// let platform = Platforms.platform(software: "gotosocial", version: "0.19.1")
/// platform.supports(.idempotencyKey)  // false: GoToSocial accepts the header and ignores it
/// ```
public protocol Platform: Sendable {
    /// The `software.name` values (lowercased) that mean this platform.
    static var softwareNames: [String] { get }
    /// Makes the platform for a server of `version`, whose instance reports Mastodon API version
    /// `apiVersion` (`api_versions.mastodon`, 4.3+; `nil` when not reported).
    init(version: SoftwareVersion, apiVersion: Int?)
    /// The name to show, such as "Mastodon" or "GoToSocial".
    var name: String { get }
    /// The server's own version.
    var version: SoftwareVersion { get }
    /// Whether the server offers the Mastodon client API at all.
    var hasMastodonAPI: Bool { get }
    /// Whether the server offers `feature`.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    func supports(_ feature: PlatformFeature) -> Bool
}

/// The Mastodon client API: every platform that offers it. Features default to the Mastodon version that
/// introduced them, compared with ``mastodonVersion``.
public protocol MastoAPI: Platform {
    /// The Mastodon version whose API this server offers (the server's own version for Mastodon itself).
    var mastodonVersion: SoftwareVersion { get }
    /// `api_versions.mastodon` as the instance reports it, if it does.
    var apiVersion: Int? { get }
}

extension MastoAPI {
    /// `true`: these servers offer the Mastodon client API.
    public var hasMastodonAPI: Bool { true }

    /// Mastodon's own thresholds: polls 2.8, edits and source 3.5, batch 4.3, quotes API version 7, …
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool { mastodonSupports(feature) }

    /// What a Mastodon of ``mastodonVersion`` (and ``apiVersion``) supports; platforms start from it.
    /// - Parameter feature: the feature.
    /// - Returns: whether that Mastodon offers it.
    public func mastodonSupports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .polls: return mastodonVersion >= SoftwareVersion(2, 8)
        case .edits, .statusSource: return mastodonVersion >= SoftwareVersion(3, 5)
        case .idempotencyKey, .sinceID, .textOnlyPosts, .pins, .tokenRevocation: return true
        case .quotePosts: return (apiVersion ?? 0) >= 7
        case .deleteMedia: return (apiVersion ?? 0) >= 4
        case .statusBatch: return mastodonVersion >= SoftwareVersion(4, 3)
        case .mediaV2: return mastodonVersion >= SoftwareVersion(3, 1, 3)
        case .backdating, .markdown: return false
        }
    }
}

/// The platforms TootClient knows, and the lookup from nodeinfo's `software.name`.
public enum Platforms {
    /// Every known platform type; adding a platform is one type and one entry here.
    public static let known: [any Platform.Type] = [
        Mastodon.self, Glitch.self, Hometown.self, GoToSocial.self, Pleroma.self, Akkoma.self, Mitra.self,
        Pixelfed.self, Friendica.self, IceshrimpNET.self, MisskeyFork.self, Misskey.self,
    ]

    /// The platform for nodeinfo's `software.name` (compared lowercased) at `version`; software no known
    /// platform claims is ``UnknownMastoAPI``, never silently Mastodon.
    /// - Parameters:
    ///   - software: `software.name`.
    ///   - version: `software.version`.
    ///   - apiVersion: `api_versions.mastodon`, if reported.
    /// - Returns: the platform.
    public static func platform(software: String, version: String, apiVersion: Int? = nil) -> any Platform {
        let name = software.lowercased()
        let parsed = SoftwareVersion(parsing: version)
        guard let type = known.first(where: { $0.softwareNames.contains(name) }) else {
            return UnknownMastoAPI(software: name, version: parsed, apiVersion: apiVersion)
        }
        return type.init(version: parsed, apiVersion: apiVersion)
    }
}
