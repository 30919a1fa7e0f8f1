import Foundation
import OrgSocial
import OrgSocialClient

/// The mirror the reading commands read from and the writing commands tell about writes: `--mirror <url>`
/// (or `none`), else `$ORGSOCIAL_MIRROR`, else `"mirror"` in the configuration, else the default
/// (`$ORGSOCIAL_DEFAULT_MIRROR`, else https://mirror.org-social.org/api).
///
/// Which of a mirror and a relay a reading command asks: the one given the strongest way wins (an option,
/// then a setting in the environment or the configuration, then a built-in default); between two settings
/// the mirror wins, between the two built-in defaults the relay. `--no-relay` reads the feeds themselves.
enum MirrorOptions {
    /// `--mirror <url>`.
    static let option = OptionDefinition.value(
        "mirror", valueName: "url",
        help: "The mirror to read from, or none (default: $ORGSOCIAL_MIRROR, else \"mirror\" in the "
            + "configuration, else https://mirror.org-social.org/api); a given --relay wins over the default "
            + "mirror.")

    /// How a mirror or a relay was given, weakest first.
    enum Strength: Int, Comparable {
        /// The built-in default.
        case builtIn
        /// `$ORGSOCIAL_…` or the configuration file.
        case setting
        /// The command's option.
        case option

        static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The mirror in effect, or `nil` for `none`, and how it was given: the one resolution of the `mirror`
    /// setting. A setting that is neither an http(s) URL nor `none` counts as unset.
    /// - Parameters:
    ///   - option: the `--mirror` value, if given.
    ///   - environment: the environment variables.
    ///   - configuration: the configuration file's settings.
    /// - Returns: The mirror's API base (`nil` for `none`) and how it was given.
    static func mirror(option: String?, environment: [String: String], configuration: Configuration)
        -> (url: URL?, strength: Strength)
    {
        let settings = SettingResolver(environment: environment)
        let candidates: [(String?, Strength)] = [
            (option, .option), (settings.text(of: "ORGSOCIAL_MIRROR"), .setting), (configuration.mirror, .setting),
        ]
        for case (let text?, let strength) in candidates where text == "none" || OrgSyntax.isHTTPURL(text) {
            return (text == "none" ? nil : URL(string: text), strength)
        }
        let fallback = ConfigurationKey.defaultMirror(environment: environment)
        return (fallback == "none" ? nil : URL(string: fallback), .builtIn)
    }

    /// Checks a `--mirror` value: an http(s) URL or `none`, and not with `--relay`.
    /// - Parameters:
    ///   - option: the `--mirror` value, if given.
    ///   - relayOption: the `--relay` value, if given.
    /// - Throws: ``CLIError`` usage errors.
    static func validate(_ option: String?, relayOption: String?) throws {
        guard let option else { return }
        if option != "none", !OrgSyntax.isHTTPURL(option) {
            throw CLIError.invalidValue(
                value: option, option: Self.option.synopsis,
                reason: "Give the mirror's http:// or https:// API URL (e.g. https://mirror.org-social.org/api), "
                    + "or none.")
        }
        if relayOption != nil, option != "none" {
            throw CLIError.validation("Give either --mirror or --relay, not both: the command reads from one of them.")
        }
    }

    /// What `read` gets from the mirror; when the mirror fails, one line on standard error (`note: the mirror
    /// URL could not be used (why); <instead>`) and `nil`, so that the command reads elsewhere.
    /// - Parameters:
    ///   - mirror: the mirror.
    ///   - instead: what the command does instead, e.g. "asking the relay instead.".
    ///   - context: the command's context.
    ///   - read: what to ask the mirror; `nil` when its answer cannot be used.
    /// - Returns: The answer, or `nil` when the mirror failed.
    /// - Throws: What `read` throws other than ``OrgSocialClientError`` (cancellation, output errors).
    static func read<Value>(
        _ mirror: MirrorClient, instead: String, in context: CommandContext,
        _ read: (MirrorClient) async throws -> Value?
    ) async throws -> Value? {
        let reason: String
        do {
            if let value = try await read(mirror) { return value }
            reason = "its answer has nothing readable"
        } catch let error as OrgSocialClientError {
            reason = error.localizedDescription
        }
        reportFailure(mirror.baseURL.absoluteString, reason: reason, instead: instead, in: context)
        return nil
    }

    /// Says on standard error, in one line, that the mirror could not be used and what is done instead.
    static func reportFailure(_ mirrorURL: String, reason: String, instead: String, in context: CommandContext) {
        context.report("note: the mirror \(mirrorURL) could not be used (\(reason)); \(instead)")
    }

    /// The mirror a reading command reads from, or `nil` when it asks the relay or reads the feeds.
    /// - Parameters:
    ///   - option: the `--mirror` value, if given.
    ///   - relayOption: the `--relay` value, if given.
    ///   - readsFeeds: whether `--no-relay` was given (the feeds themselves are read).
    ///   - hasDefaultRelay: whether the command asks the default relay when none is configured.
    ///   - context: the command's context.
    /// - Returns: A client for the mirror, over the command's transport.
    /// - Throws: ``CLIError`` for a malformed environment or configuration.
    static func client(
        option: String?, relayOption: String?, readsFeeds: Bool = false, hasDefaultRelay: Bool,
        in context: CommandContext
    ) throws -> MirrorClient? {
        guard !readsFeeds else { return nil }
        let configuration = (try? ConfigurationFile.load(in: context)) ?? Configuration()
        let mirror = mirror(option: option, environment: context.environment, configuration: configuration)
        guard let url = mirror.url else { return nil }
        let relay: Strength? =
            if relayOption != nil {
                .option
            } else if try RelayOptions.relayURL(option: nil, in: context) != nil {
                .setting
            } else {
                hasDefaultRelay ? .builtIn : nil
            }
        if let relay, relay > mirror.strength || (relay == mirror.strength && relay == .builtIn) { return nil }
        return MirrorClient(baseURL: url, transport: context.makeTransport())
    }
}
