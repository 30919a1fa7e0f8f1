import Foundation
import OrgSocialClient

/// Where the relay is, for the commands that ask one: `--relay <url>`, else `$ORGSOCIAL_RELAY`, else
/// `"relayURL"` in the configuration, else (for the commands that only ask a relay) the default relay.
enum RelayOptions {
    /// `--relay <url>` for commands that need a relay.
    static let relayOption = OptionDefinition.value(
        "relay", valueName: "url",
        help: "The relay to ask (default: $ORGSOCIAL_RELAY, else \"relayURL\" in the configuration, else "
            + "https://relay.org-social.org).")

    /// The relay URL from the option, the environment or the configuration, if any.
    /// - Parameters:
    ///   - option: the `--relay` value.
    ///   - context: the command's context.
    /// - Returns: The relay URL, or `nil` when none is configured.
    /// - Throws: ``CLIError`` for a malformed option, environment or configuration.
    static func relayURL(option: String?, in context: CommandContext) throws -> String? {
        let option = try option.map { try SettingResolver.value($0, from: .option(relayOption.synopsis), as: .httpURL) }
        // A "relayURL" setting that is not a URL is skipped, as it always was.
        return try SettingResolver(environment: context.environment).resolve(
            option: option, variable: variableName,
            configuration: ("relayURL", { try ConfigurationFile.load(in: context).relayURL.flatMap(skippingNonURL) }),
            as: .httpURL)?.value
    }

    /// The variable of `--relay`.
    static let variableName = "ORGSOCIAL_RELAY"

    /// `text` when it is an http(s) URL, else `nil`: a stored URL setting that is not one is skipped.
    static func skippingNonURL(_ text: String) -> String? { SettingResolver.Format<String>.httpURL.parse(text) }

    /// A client for the configured relay, else for the default relay (the one `orgsocial config` shows:
    /// `$ORGSOCIAL_DEFAULT_RELAY`, else https://relay.org-social.org).
    /// - Throws: ``CLIError`` for a malformed option, environment or configuration.
    static func makeClient(option: String?, in context: CommandContext) throws -> RelayClient {
        let url =
            try relayURL(option: option, in: context)
            ?? ConfigurationKey.defaultRelayURL(environment: context.environment)
        guard let base = URL(string: url) else {
            throw CLIError.invalidValue(
                value: url, option: relayOption.synopsis, reason: "Give the relay's http:// or https:// URL.")
        }
        return RelayClient(baseURL: base, transport: context.makeTransport())
    }
}
