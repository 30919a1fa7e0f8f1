/// Mastodon and the forks that keep its API and version numbers: features follow Mastodon's versions.
public protocol MastodonFamily: MastoAPI {}

extension MastodonFamily {
    /// The server's own version: these forks number their releases as Mastodon does.
    public var mastodonVersion: SoftwareVersion { version }
}

/// Mastodon itself (`software.name` `mastodon`).
public struct Mastodon: MastodonFamily, Hashable {
    /// `mastodon`.
    public static let softwareNames = ["mastodon"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon` (4.3+).
    public let apiVersion: Int?
    /// "Mastodon".
    public var name: String { "Mastodon" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}

/// Glitch-soc: Mastodon with extras, among them `content_type` (Markdown) on statuses.
public struct Glitch: MastodonFamily, Hashable {
    /// `glitch`, `glitch-soc`.
    public static let softwareNames = ["glitch", "glitch-soc", "glitchsoc"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`.
    public let apiVersion: Int?
    /// "Glitch".
    public var name: String { "Glitch" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }

    /// Mastodon's features, plus Markdown.
    /// - Parameter feature: the feature.
    /// - Returns: whether the platform offers it.
    public func supports(_ feature: PlatformFeature) -> Bool {
        feature == .markdown || mastodonSupports(feature)
    }
}

/// Hometown: Mastodon with local-only posting; the API is Mastodon's.
public struct Hometown: MastodonFamily, Hashable {
    /// `hometown`.
    public static let softwareNames = ["hometown"]
    /// The server's version.
    public let version: SoftwareVersion
    /// `api_versions.mastodon`.
    public let apiVersion: Int?
    /// "Hometown".
    public var name: String { "Hometown" }

    /// Makes the platform.
    /// - Parameters:
    ///   - version: the server's version.
    ///   - apiVersion: `api_versions.mastodon`.
    public init(version: SoftwareVersion, apiVersion: Int?) {
        self.version = version
        self.apiVersion = apiVersion
    }
}
