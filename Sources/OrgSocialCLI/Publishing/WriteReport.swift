import Foundation
import OrgSocial
import OrgSocialClient
import Synchronization

/// `--verbose` and `--json` of the writing commands: gathers what a write did (where it was published,
/// what the mirror and the relay were told) and prints it at the end, as the command's usual line or as one
/// JSON object (``WriteReport``).
///
/// After a successful upload it also tells the mirror to read the feed again and registers the feed with
/// the configured relay the first time (`WriteAnnouncer`), best effort. The mirror is the `mirror` setting
/// (`ORGSOCIAL_MIRROR`, default the official one, or `$ORGSOCIAL_DEFAULT_MIRROR`; `none` turns it off). The
/// relay is told only when one is configured (`ORGSOCIAL_RELAY` or `relayURL`), not the default one the
/// reading commands ask.
final class WriteReporter: Sendable {
    /// `--verbose` on the writing commands.
    static let verboseOption = OptionDefinition.flag(
        "verbose", help: "Say whether the mirror and the relay were told about the write.")
    /// `--json` on the writing commands.
    static let jsonFlag = OptionDefinition.flag(
        "json",
        help:
            "Print the outcome as JSON: the post's address, the file, where it was published and what the mirror "
            + "and the relay were told (with --everywhere, one object per destination).")

    /// The definitions, in help order.
    static let definitions = [verboseOption, jsonFlag]

    /// `--verbose`: report on standard error what the mirror and the relay were told.
    let verbose: Bool
    /// `--json`: print a ``WriteReport`` instead of the command's line.
    let printsJSON: Bool
    /// What was published, once it was.
    private let publication = Mutex<WriteReport.Publication?>(nil)

    /// Reads `--verbose` and `--json`.
    convenience init(parsing arguments: ParsedArguments) {
        self.init(verbose: arguments.flag("verbose"), printsJSON: arguments.flag("json"))
    }

    /// A reporter for the given flags.
    init(verbose: Bool = false, printsJSON: Bool = false) {
        self.verbose = verbose
        self.printsJSON = printsJSON
    }

    /// Records that the feed at `location` was published (or already held the change).
    /// - Parameters:
    ///   - location: the feed's URL.
    ///   - uploaded: whether anything was uploaded.
    ///   - earlierChanges: whether changes saved earlier and not published then went up too.
    func published(to location: String, uploaded: Bool, earlierChanges: Bool = false) {
        publication.withLock {
            $0 = WriteReport.Publication(
                to: location, uploaded: uploaded, earlierChanges: earlierChanges,
                mirror: .init(outcome: .notConfigured, server: nil), relay: .init(outcome: .notConfigured, server: nil))
        }
    }

    /// Tells the mirror and the relay about a write of `feedURL`, records what became of each and, with
    /// `--verbose`, says so on standard error; never fails.
    /// - Parameters:
    ///   - feedURL: the feed's public URL.
    ///   - context: the environment, the transport and standard error.
    func announce(_ feedURL: URL, in context: CommandContext) async {
        let environment = context.environment
        let configuration = (try? ConfigurationFile(environment: environment)?.load()) ?? Configuration()
        let settings = SettingResolver(environment: environment)
        let relayText = settings.text(of: "ORGSOCIAL_RELAY") ?? configuration.relayURL
        let mirror = MirrorOptions.mirror(option: nil, environment: environment, configuration: configuration).url
        let relay = relayText.flatMap { OrgSyntax.isHTTPURL($0) ? URL(string: $0) : nil }
        let announcer = WriteAnnouncer(
            mirror: mirror, relay: relay, remembering: MergeBaseStore(environment: environment),
            transport: context.makeTransport())
        let report = await announcer.announce(feedURL)
        let mirrorNotice = WriteReport.Notice(outcome: report.mirror, server: mirror)
        let relayNotice = WriteReport.Notice(outcome: report.relay, server: relay)
        publication.withLock {
            $0?.mirror = mirrorNotice
            $0?.relay = relayNotice
        }
        guard verbose else { return }
        context.report("Mirror: " + mirrorNotice.sentence(doing: "was asked to read the feed again"))
        context.report("Relay: " + relayNotice.sentence(doing: "registered the feed"))
    }

    /// Prints the command's result: `address` on a line of its own, or with `--json` the whole report.
    /// - Parameters:
    ///   - address: what the command prints (a post's URL or ID, the feed's URL), if anything.
    ///   - file: the feed file written.
    ///   - context: for standard output.
    /// - Throws: `EncodingError` (not expected).
    func finish(address: String?, file: String, in context: CommandContext) throws {
        if printsJSON {
            let report = WriteReport(
                address: address, file: file, published: publication.withLock { $0 })
            context.write(try JSONOutput.text(report))
        } else if let address {
            context.writeLine(address)
        }
    }
}

/// What a writing command did, as `--json` prints it. Every key is present; absent values are `null`.
struct WriteReport: Encodable, Sendable {
    /// What the command prints without `--json`: the new or changed post's URL (or its ID when the feed's
    /// URL is unknown), the followed feed, the published feed's URL; `null` for commands that print nothing.
    var address: String?
    /// The feed file written.
    var file: String
    /// Where the write was published; `null` when it was not (`--no-publish`, or publishing is off).
    var published: Publication?

    /// A publication.
    struct Publication: Encodable, Sendable {
        /// The feed's URL.
        var to: String
        /// Whether anything was uploaded (`false`: the feed already held the change).
        var uploaded: Bool
        /// Whether changes saved in the file earlier, and not published then, went up too.
        var earlierChanges: Bool
        /// What became of asking the mirror to read the feed again.
        var mirror: Notice
        /// What became of registering the feed with the configured relay.
        var relay: Notice
    }

    /// What became of telling a server about the write.
    struct Notice: Encodable, Sendable {
        /// What became of it.
        var outcome: Outcome
        /// The server, `null` when none is configured.
        var server: String?
        /// Why it failed, or `null`.
        var reason: String?

        /// The notice of an announcer outcome.
        init(outcome: WriteAnnouncer.Outcome, server: URL?) {
            self.server = server?.absoluteString
            switch outcome {
            case .notConfigured: self.outcome = .notConfigured
            case .alreadyDone: self.outcome = .alreadyDone
            case .done: self.outcome = .done
            case .failed(let reason):
                self.outcome = .failed
                self.reason = reason
            }
        }

        /// What became of telling the server, as the JSON says it.
        enum Outcome: String, Encodable, Sendable {
            /// No server of this kind is configured.
            case notConfigured
            /// The server knew already (a relay the feed was registered with before).
            case alreadyDone
            /// The server was told.
            case done
            /// The server could not be told; ``Notice/reason`` says why.
            case failed
        }

        /// The `--verbose` sentence.
        func sentence(doing: String) -> String {
            let name = server ?? ""
            switch outcome {
            case .notConfigured: return "none configured."
            case .alreadyDone: return "\(name) has the feed already."
            case .done: return "\(name) \(doing)."
            case .failed: return "\(name) could not be told (\(reason ?? "no answer")); the write itself is done."
            }
        }

        /// Writes every key, `null` included.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(outcome, forKey: .outcome)
            try container.encode(server, forKey: .server)
            try container.encode(reason, forKey: .reason)
        }

        private enum CodingKeys: String, CodingKey { case outcome, server, reason }
    }

    /// Writes every key, `null` included.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(file, forKey: .file)
        try container.encode(published, forKey: .published)
    }

    private enum CodingKeys: String, CodingKey { case address, file, published }
}
