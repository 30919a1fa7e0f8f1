public import Foundation

/// What discovery learnt about a server: its software and the limits that shape posting. `Codable`, so a
/// bridge stores it and a restart needs no rediscovery.
public struct ServerProfile: Codable, Sendable, Hashable {
    /// The instance URL.
    public var instanceURL: URL
    /// nodeinfo's `software.name`, lowercased (or from the instance's `(compatible; …)` version).
    public var software: String
    /// The software's version string as reported.
    public var version: String
    /// `api_versions.mastodon`, if reported (Mastodon 4.3+).
    public var apiVersion: Int?
    /// The nodeinfo schema read (`2.1`, `2.0`, …), or `nil` when there was no nodeinfo.
    public var nodeInfoSchema: String?
    /// Which instance document answered: `v2`, `v1` or `nil` for none.
    public var instanceDocument: String?
    /// The posting limits.
    public var limits: InstanceLimits

    /// The platform: the software's type, with its features.
    public var platform: any Platform {
        Platforms.platform(software: software, version: version, apiVersion: apiVersion)
    }
}

/// The limits that shape a post, resolved from the instance documents and nodeinfo (first hit wins,
/// mastodon-api.md §1.1); 0 means "no such thing" (a poll limit of 0 options: no polls).
public struct InstanceLimits: Codable, Sendable, Hashable {
    /// Most characters in a status (spoiler text included).
    public var maxCharacters: Int
    /// What every URL counts as.
    public var charactersPerURL: Int
    /// Most media attachments on a status.
    public var maxMediaAttachments: Int
    /// Most poll options.
    public var pollMaxOptions: Int
    /// Most characters in a poll option.
    public var pollMaxCharactersPerOption: Int
    /// The shortest poll, in seconds.
    public var pollMinExpiration: Int
    /// The longest poll, in seconds.
    public var pollMaxExpiration: Int

    /// Mastodon's defaults: 500 characters, 23 per URL, 4 media, polls 4 / 50 / 300 s / 2 629 746 s.
    public static let mastodonDefaults = InstanceLimits(
        maxCharacters: 500, charactersPerURL: 23, maxMediaAttachments: 4, pollMaxOptions: 4,
        pollMaxCharactersPerOption: 50, pollMinExpiration: 300, pollMaxExpiration: 2_629_746)
}
