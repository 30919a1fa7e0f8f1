import Foundation
import OrgSocialClient

/// Where the relay is, for the commands that ask one: `--relay <url>`, else `$ORGSOCIAL_RELAY`, else
/// `"relayURL"` in the configuration.
enum RelayOptions {
    /// `--relay <url>` for commands that need a relay.
    static let relayOption = OptionDefinition.value(
        "relay", valueName: "url",
        help: "The relay to ask (default: $ORGSOCIAL_RELAY, else \"relayURL\" in the configuration).")

    /// The relay URL from the option, the environment or the configuration, if any.
    /// - Parameters:
    ///   - option: the `--relay` value.
    ///   - context: the command's context.
    /// - Returns: The relay URL, or `nil` when none is configured.
    /// - Throws: ``CLIError`` for a malformed option, environment or configuration.
    static func relayURL(option: String?, in context: CommandContext) throws -> String? {
        if let option {
            guard FeedFileOptions.isHTTPURL(option) else {
                throw CLIError.invalidValue(
                    value: option, option: relayOption.synopsis, reason: "Give the relay's http:// or https:// URL.")
            }
            return option
        }
        if let url = context.environment["ORGSOCIAL_RELAY"], !url.isEmpty {
            guard FeedFileOptions.isHTTPURL(url) else {
                throw CLIError.invalidEnvironment(
                    name: "ORGSOCIAL_RELAY", value: url, reason: "it must be an http:// or https:// URL, or unset.")
            }
            return url
        }
        return try ConfigurationFile.load(in: context).relayURL.flatMap { FeedFileOptions.isHTTPURL($0) ? $0 : nil }
    }

    /// A client for the configured relay.
    /// - Throws: ``CLIError/validation(_:)`` when no relay is configured.
    static func makeClient(option: String?, in context: CommandContext) throws -> RelayClient {
        guard let url = try relayURL(option: option, in: context), let base = URL(string: url) else {
            throw CLIError.validation(
                "No relay is configured. Give one with --relay URL (for example https://relay.org-social.org), "
                    + "set ORGSOCIAL_RELAY, or save \"relayURL\" in the configuration.")
        }
        return RelayClient(baseURL: base, transport: context.makeTransport())
    }
}
