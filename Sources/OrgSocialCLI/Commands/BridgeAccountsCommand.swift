import Bridge
import Foundation
import TootClient

/// `orgsocial bridge accounts [--json]`: the bridge's accounts with their platforms and limits (never their
/// tokens).
struct BridgeAccountsCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "accounts",
            abstract: "List the bridge's accounts with their platform and limits.",
            options: [.flag("json", help: "Print the accounts as JSON."), BridgeOptions.stateOption])
    }

    /// `--json`.
    var printsJSON: Bool
    /// `--state`.
    var statePath: String?

    init(parsing arguments: ParsedArguments) throws {
        printsJSON = arguments.flag("json")
        statePath = arguments.value("state")
    }

    /// One account in the JSON output.
    struct Entry: Encodable {
        /// The name.
        var name: String
        /// The instance URL.
        var instance: String
        /// The platform's display name.
        var platform: String
        /// nodeinfo's software name.
        var software: String
        /// The software's version.
        var version: String
        /// `api_versions.mastodon`, or `null`.
        var apiVersion: Int?
        /// The limits.
        var limits: InstanceLimits
        /// When it was added (ISO 8601).
        var addedAt: String
        /// Whether the configuration file holds its token.
        var hasToken: Bool
        /// Whether removing it can revoke the token (the bridge registered the app).
        var canRevoke: Bool

        /// Writes every field, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(instance, forKey: .instance)
            try container.encode(platform, forKey: .platform)
            try container.encode(software, forKey: .software)
            try container.encode(version, forKey: .version)
            try container.encode(apiVersion, forKey: .apiVersion)
            try container.encode(limits, forKey: .limits)
            try container.encode(addedAt, forKey: .addedAt)
            try container.encode(hasToken, forKey: .hasToken)
            try container.encode(canRevoke, forKey: .canRevoke)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case name, instance, platform, software, version, apiVersion, limits, addedAt, hasToken, canRevoke
        }
    }

    func run(in context: CommandContext) async throws {
        let state = try await BridgeOptions.existingState(option: statePath, in: context)
        let credentials = try BridgeOptions.credentials(in: context)
        let entries = try await (state?.accounts() ?? []).map { account in
            Entry(
                name: account.name, instance: account.instanceURL.absoluteString,
                platform: account.server.platform.name,
                software: account.server.software, version: account.server.version,
                apiVersion: account.server.apiVersion, limits: account.server.limits,
                addedAt: BridgeOptions.timestamp(account.addedAt), hasToken: credentials[account.name] != nil,
                canRevoke: credentials[account.name]?.app != nil)
        }
        if printsJSON {
            context.write(try JSONOutput.text(entries))
            return
        }
        if entries.isEmpty {
            context.writeLine(BridgeOptions.noAccountsMessage)
            return
        }
        for entry in entries {
            let token = entry.hasToken ? "" : "  (no token: add the account again)"
            context.writeLine("\(entry.name)  \(entry.platform) \(entry.version)  \(entry.instance)\(token)")
            context.writeLine("  \(BridgeOptions.limitsText(entry.limits))")
        }
    }
}
