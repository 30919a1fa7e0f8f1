import Bridge
import Foundation
import SystemSupport

/// The settings kept in `config.json`: where the feed lives and how to publish it.
///
/// ```json
/// {
///   "feedURL" : "https://host.example.org/ana/social.org",
///   "file" : "/home/ana/social.org",
///   "publish" : {
///     "automatic" : true,
///     "method" : "host",
///     "publicURL" : "https://host.example.org/ana/social.org",
///     "vfile" : "https://host.example.org/vfile?token=…&ts=…&sig=…"
///   }
/// }
/// ```
///
/// Environment variables override the file: `ORGSOCIAL_FEED_URL`, `ORGSOCIAL_FILE`, `ORGSOCIAL_TOKEN`,
/// `ORGSOCIAL_VFILE` and `ORGSOCIAL_PUBLISH_METHOD` (see ``PublishTarget``), `ORGSOCIAL_RELAY`,
/// `ORGSOCIAL_LANG`, `ORGSOCIAL_LANGUAGES` and `ORGSOCIAL_BLOCK` (see ``ConfigurationKey``, which
/// `orgsocial config` edits the file with).
struct Configuration: Codable, Equatable {
    /// How to publish.
    struct Publishing: Codable, Equatable {
        /// `put` (a node such as `orgsocial serve`: PUT with a bearer token), `host` (the Org Social Host
        /// API with a vfile), `webdav`, `github` or `forgejo` (`codeberg`, `gitea`); inferred from
        /// `token`/`vfile` when absent.
        var method: String?
        /// The bearer token for `put`, the password for `webdav`, the API token for `github` and `forgejo`.
        var token: String?
        /// The WebDAV upload URL (the feed URL when absent).
        var url: String?
        /// The WebDAV user name.
        var username: String?
        /// The repository's owner, for `github` and `forgejo`.
        var owner: String?
        /// The repository, for `github` and `forgejo`.
        var repo: String?
        /// The file's path in the repository (`social.org` when absent).
        var path: String?
        /// The branch (`main` when absent).
        var branch: String?
        /// The forge's API base (`https://api.github.com`, `https://codeberg.org` when absent).
        var instance: String?
        /// The vfile (secret upload URL) for `host`.
        var vfile: String?
        /// Where the feed is read for `host` (returned by sign-up).
        var publicURL: String?
        /// Whether the editing commands publish without `--publish` (`--no-publish` opts out).
        var automatic: Bool?
    }

    /// The feed's public URL.
    var feedURL: String?
    /// The local feed file `orgsocial publish` uploads when `--file` is not given.
    var file: String?
    /// How to publish, if set up.
    var publish: Publishing?
    /// The relay the reading commands ask (`ORGSOCIAL_RELAY` overrides it).
    var relayURL: String?
    /// The mirror told to read the feed again after each write, or `none` (`ORGSOCIAL_MIRROR` overrides
    /// it).
    var mirror: String?
    /// The language new posts get when `--lang` is not given (`ORGSOCIAL_LANG` overrides it).
    var language: String?
    /// The languages the timeline shows when `--lang` is not given; empty or absent shows all
    /// (`ORGSOCIAL_LANGUAGES` overrides it).
    var languages: [String]?
    /// Feed URLs whose posts the timeline never shows (`ORGSOCIAL_BLOCK` overrides it).
    var block: [String]?
    /// The bridge's Mastodon tokens by account name (`orgsocial bridge add-account` writes them; the
    /// bridge's state file holds everything else). Never listed by `config list`.
    var bridgeAccounts: [String: BridgeCredential]?
}

/// The configuration file: `$ORGSOCIAL_CONFIG`, else `$XDG_CONFIG_HOME/orgsocial/config.json`, else
/// `~/.config/orgsocial/config.json`. It holds secrets, so it is written with mode 0600 (its folder
/// 0700), atomically.
struct ConfigurationFile {
    /// The file's path.
    let path: String

    /// The configuration file for an environment, or `nil` when neither `ORGSOCIAL_CONFIG`,
    /// `XDG_CONFIG_HOME` nor `HOME` is set. Only `environment` is consulted, never the process's own.
    /// - Parameter environment: the environment variables.
    init?(environment: [String: String]) {
        if let explicit = environment["ORGSOCIAL_CONFIG"], !explicit.isEmpty {
            path = explicit
        } else if let folder = Self.absolute(environment["XDG_CONFIG_HOME"]) {
            path = folder + "/orgsocial/config.json"
        } else if let home = Self.absolute(environment["HOME"]) {
            path = home + "/.config/orgsocial/config.json"
        } else {
            return nil
        }
    }

    /// The configuration file of a command's context.
    /// - Throws: ``CLIError/noConfigurationLocation`` when there is none.
    static func required(in context: CommandContext) throws -> ConfigurationFile {
        guard let file = ConfigurationFile(environment: context.environment) else {
            throw CLIError.noConfigurationLocation
        }
        return file
    }

    /// The configuration of a context, empty when there is no file.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)``.
    static func load(in context: CommandContext) throws -> Configuration {
        try ConfigurationFile(environment: context.environment)?.load() ?? Configuration()
    }

    /// Reads the file; an absent file is an empty configuration.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)`` when it cannot be read or decoded.
    func load() throws -> Configuration {
        guard FileManager.default.fileExists(atPath: path) else { return Configuration() }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError.invalidConfiguration(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        if data.allSatisfy({
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t")
        }) {
            return Configuration()
        }
        do {
            return try JSONDecoder().decode(Configuration.self, from: data)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw CLIError.invalidConfiguration(path: path, reason: "\"\(key)\" has the wrong type")
        } catch {
            throw CLIError.invalidConfiguration(path: path, reason: "it is not valid JSON")
        }
    }

    /// Writes `configuration` atomically with mode 0600, creating the folder (mode 0700) if needed.
    /// - Throws: ``CLIError/cannotWrite(path:reason:)``.
    func save(_ configuration: Configuration) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(
                    atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw CLIError.cannotWrite(
                    path: path, reason: "creating the folder failed: \(error.localizedDescription)")
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(configuration)
            // Keys this version does not know (a newer version's, or the user's own) are kept as they are.
            if let existing = try? Data(contentsOf: URL(fileURLWithPath: path)),
                let raw = try? JSONSerialization.jsonObject(with: existing) as? [String: Any],
                let understood = try? JSONSerialization.jsonObject(with: encoder.encode(load())) as? [String: Any],
                let new = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            {
                let merged = Self.keepingUnknownKeys(of: raw, understood: understood, in: new)
                if !NSDictionary(dictionary: merged).isEqual(to: new) {
                    data = try JSONSerialization.data(
                        withJSONObject: merged, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                }
            }
        } catch {
            throw CLIError.cannotWrite(path: path, reason: "encoding failed: \(error.localizedDescription)")
        }
        try AtomicFile.write(Array(data) + [UInt8(ascii: "\n")], to: path, permissions: 0o600)
    }

    /// `new` with the keys of `raw` that are not in `understood` (what this version read from `raw`) added
    /// back, at any depth. A setting that was understood and is gone from `new` is gone whole, with any
    /// unknown keys inside it.
    /// - Parameters:
    ///   - raw: the file's JSON object as it was.
    ///   - understood: the configuration this version read from it, encoded again.
    ///   - new: the configuration to write, encoded.
    /// - Returns: the object to write.
    static func keepingUnknownKeys(of raw: [String: Any], understood: [String: Any], in new: [String: Any])
        -> [String: Any]
    {
        var result = new
        for (key, value) in raw {
            guard let known = understood[key] else {
                result[key] = value
                continue
            }
            if let rawObject = value as? [String: Any], let knownObject = known as? [String: Any],
                let newObject = new[key] as? [String: Any]
            {
                result[key] = keepingUnknownKeys(of: rawObject, understood: knownObject, in: newObject)
            }
        }
        return result
    }

    /// Whether group or others may read the file (it should be 0600 when it holds a token or vfile).
    var isReadableByOthers: Bool {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        else { return false }
        return mode & 0o077 != 0
    }

    /// `value` when it is an absolute path (the XDG rule: relative paths are ignored).
    private static func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value.count > 1 && value.hasSuffix("/") ? String(value.dropLast()) : value
    }
}
