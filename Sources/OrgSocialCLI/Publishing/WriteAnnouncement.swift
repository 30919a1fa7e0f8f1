import Foundation
import OrgSocial
import OrgSocialClient

/// After a successful write: asks the mirror to read the feed again and registers it with the configured
/// relay the first time (`WriteAnnouncer`), best effort; with `--verbose` says what became of each.
///
/// The mirror is the `mirror` setting (`ORGSOCIAL_MIRROR`, default the official one, or
/// `$ORGSOCIAL_DEFAULT_MIRROR`; `none` turns it off). The relay is told only when one is configured
/// (`ORGSOCIAL_RELAY` or `relayURL`), not the default one the reading commands ask.
enum WriteAnnouncement {
    /// `--verbose` on the writing commands.
    static let verboseOption = OptionDefinition.flag(
        "verbose", help: "Say whether the mirror and the relay were told about the write.")

    /// Tells the mirror and the relay about a write of `feedURL`; never fails.
    /// - Parameters:
    ///   - feedURL: the feed's public URL.
    ///   - verbose: whether to report the outcomes on standard error.
    ///   - context: the environment, the transport and standard error.
    static func announce(_ feedURL: URL, verbose: Bool, in context: CommandContext) async {
        let environment = context.environment
        let configuration = (try? ConfigurationFile(environment: environment)?.load()) ?? Configuration()
        let settings = SettingResolver(environment: environment)
        let mirrorText =
            settings.text(of: "ORGSOCIAL_MIRROR") ?? configuration.mirror
            ?? ConfigurationKey.defaultMirror(environment: environment)
        let relayText = settings.text(of: "ORGSOCIAL_RELAY") ?? configuration.relayURL
        let mirror = mirrorText == "none" ? nil : URL(string: mirrorText)
        let relay = relayText.flatMap { OrgSyntax.isHTTPURL($0) ? URL(string: $0) : nil }
        let announcer = WriteAnnouncer(
            mirror: mirror, relay: relay, remembering: MergeBaseStore(environment: environment),
            transport: context.makeTransport())
        let report = await announcer.announce(feedURL)
        guard verbose else { return }
        context.report("Mirror: " + describe(report.mirror, server: mirror, doing: "was asked to read the feed again"))
        context.report("Relay: " + describe(report.relay, server: relay, doing: "registered the feed"))
    }

    private static func describe(_ outcome: WriteAnnouncer.Outcome, server: URL?, doing: String) -> String {
        let name = server?.absoluteString ?? ""
        switch outcome {
        case .notConfigured: return "none configured."
        case .alreadyDone: return "\(name) has the feed already."
        case .done: return "\(name) \(doing)."
        case .failed(let reason): return "\(name) could not be told (\(reason)); the write itself is done."
        }
    }
}
