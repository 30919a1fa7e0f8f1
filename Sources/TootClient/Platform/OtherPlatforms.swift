/// A Mastodon-compatible server with its own version numbers: it claims a Mastodon API level
/// (``claimedMastodonVersion``) next to its own build.
public protocol MastoCompatible: MastoAPI {
    /// The Mastodon API level the platform implements, whatever its own version.
    static var claimedMastodonVersion: SoftwareVersion { get }
}

extension MastoCompatible {
    /// ``claimedMastodonVersion``.
    public var mastodonVersion: SoftwareVersion { Self.claimedMastodonVersion }
}

/// GoToSocial: ignores `Idempotency-Key`, has no `since_id`, accepts Markdown, backdates a past
/// `scheduled_at` (mastodon-api.md §3.3).
public struct GoToSocial: MastoCompatible, Hashable {
    /// `gotosocial`.
    public static let softwareNames = ["gotosocial"]
    /// Mastodon 3.5's API (Fedicat's figure).
    public static let claimedMastodonVersion = SoftwareVersion(3, 5)
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "GoToSocial".
    public var name: String { "GoToSocial" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Mastodon 3.5's features, with GoToSocial's differences.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .idempotencyKey, .sinceID: return false
        case .backdating, .markdown, .mediaV2: return true
        default: return mastodonSupports(feature)
        }
    }
}

/// The Pleroma family (Pleroma, Akkoma): Markdown, no token revocation, `ids[]` rather than `id[]`.
public protocol PleromaFamily: MastoCompatible {}

extension PleromaFamily {
    /// Mastodon 3.5's API.
    public static var claimedMastodonVersion: SoftwareVersion { SoftwareVersion(3, 5) }

    /// Mastodon 3.5's features, with Pleroma's differences.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .markdown: return true
        case .tokenRevocation, .statusBatch: return false
        default: return mastodonSupports(feature)
        }
    }
}

/// Pleroma.
public struct Pleroma: PleromaFamily, Hashable {
    /// `pleroma`.
    public static let softwareNames = ["pleroma"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Pleroma".
    public var name: String { "Pleroma" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// Akkoma, Pleroma's fork: no v2 instance document, otherwise Pleroma's API.
public struct Akkoma: PleromaFamily, Hashable {
    /// `akkoma`.
    public static let softwareNames = ["akkoma"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Akkoma".
    public var name: String { "Akkoma" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// Mitra: wants JSON bodies; idempotency not known, so not relied on.
public struct Mitra: MastoCompatible, Hashable {
    /// `mitra`.
    public static let softwareNames = ["mitra"]
    /// Mastodon 3.5's API.
    public static let claimedMastodonVersion = SoftwareVersion(3, 5)
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Mitra".
    public var name: String { "Mitra" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Mastodon 3.5's features, without idempotency or the status source.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .idempotencyKey, .statusSource, .pins: return false
        default: return mastodonSupports(feature)
        }
    }
}

/// Pixelfed: every post needs media, no edits or source, `Idempotency-Key` documented as unsupported.
public struct Pixelfed: MastoCompatible, Hashable {
    /// `pixelfed`.
    public static let softwareNames = ["pixelfed"]
    /// Mastodon 3.5's API.
    public static let claimedMastodonVersion = SoftwareVersion(3, 5)
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Pixelfed".
    public var name: String { "Pixelfed" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Little beyond posting with media.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .edits, .statusSource, .idempotencyKey, .textOnlyPosts, .polls, .statusBatch: return false
        default: return mastodonSupports(feature)
        }
    }
}

/// Friendica: cannot create polls (its limits are 0), no idempotency or source.
public struct Friendica: MastoCompatible, Hashable {
    /// `friendica`.
    public static let softwareNames = ["friendica"]
    /// Mastodon 3.5's API.
    public static let claimedMastodonVersion = SoftwareVersion(3, 5)
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Friendica".
    public var name: String { "Friendica" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Mastodon 3.5's features, without polls, idempotency or source.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .polls, .idempotencyKey, .statusSource: return false
        default: return mastodonSupports(feature)
        }
    }
}

/// The Misskey forks that add a Mastodon layer (Firefish, Iceshrimp, Sharkey, Catodon): JSON bodies,
/// media descriptions set before an edit, no source or idempotency.
public protocol MisskeyLayer: MastoCompatible {}

extension MisskeyLayer {
    /// Mastodon 3.5's API.
    public static var claimedMastodonVersion: SoftwareVersion { SoftwareVersion(3, 5) }

    /// Mastodon 3.5's features, without source, idempotency or batch reads.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        switch feature {
        case .statusSource, .idempotencyKey, .statusBatch: return false
        default: return mastodonSupports(feature)
        }
    }
}

/// Iceshrimp.NET (it sends `software.name` capitalised, `Iceshrimp.NET`).
public struct IceshrimpNET: MisskeyLayer, Hashable {
    /// `iceshrimp.net`.
    public static let softwareNames = ["iceshrimp.net"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Iceshrimp.NET".
    public var name: String { "Iceshrimp.NET" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// The other Misskey forks with a Mastodon layer: Firefish, Iceshrimp (JS), Sharkey, Catodon.
public struct MisskeyFork: MisskeyLayer, Hashable {
    /// `firefish`, `iceshrimp`, `sharkey`, `catodon`.
    public static let softwareNames = ["firefish", "iceshrimp", "sharkey", "catodon"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// "Misskey fork".
    public var name: String { "Misskey fork" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// Misskey itself: its own API (`/api/notes/create`), no Mastodon API; TootClient refuses it.
public struct Misskey: Platform, Hashable {
    /// `misskey`.
    public static let softwareNames = ["misskey"]
    /// The server's version.
    public let version: SoftwareVersion
    /// "Misskey".
    public var name: String { "Misskey" }
    /// `false`.
    public var hasMastodonAPI: Bool { false }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: ignored.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
    }

    /// Nothing: there is no Mastodon API.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool { false }
}

/// Software no known platform claims: it may offer the Mastodon API, but which features is unknown, so
/// only the basics (posting, reading, paging with `since_id`) are assumed.
public struct UnknownMastoAPI: MastoAPI, Hashable {
    /// None: this platform is what is left when no name matches.
    public static let softwareNames: [String] = []
    /// The software's name as nodeinfo gave it, lowercased.
    public let software: String
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`, if reported.
    public let apiVersion: Int?
    /// Mastodon 2.0's API: nothing newer is assumed.
    public var mastodonVersion: SoftwareVersion { SoftwareVersion(2, 0) }
    /// "<software> (MastoAPI, features unknown)".
    public var name: String { "\(software) (MastoAPI, features unknown)" }

    /// Makes the platform for unnamed software.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.init(software: "unknown", version: version, apiVersion: apiVersion)
    }

    /// Makes the platform for `software`.
    /// - Parameters:
    ///   - software: the software's name.
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(software: String, version: SoftwareVersion, apiVersion: Int?) {
        self.software = software
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Only text posts and `since_id`; everything else is treated as missing.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        feature == .textOnlyPosts || feature == .sinceID
    }
}
