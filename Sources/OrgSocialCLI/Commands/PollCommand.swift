import Foundation
import OrgSocial

/// `orgsocial poll --file <file> --question <q> --option <a> --option <b> [--ends-in <d> | --ends-at <t>]`.
struct PollCommand: ParsableCommand {
    /// `--ends-in <duration>`.
    static let endsInOption = OptionDefinition.value(
        "ends-in", valueName: "duration", help: "How long voting stays open: 30m, 12h, 1d, 2w or a mix such as 1d12h.",
        defaultValue: "1d")
    /// `--ends-at <timestamp>`.
    static let endsAtOption = OptionDefinition.value(
        "ends-at", valueName: "timestamp", help: "When voting closes, e.g. 2026-01-02T18:00:00+0100.")

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "poll",
            abstract: "Append a poll.",
            options: [
                FeedFileOptions.fileOption,
                .value("question", help: "The question; '-' reads it from standard input.", isRequired: true),
                .value("option", help: "An answer; give two or more.", isRequired: true, isRepeatable: true),
                endsInOption, endsAtOption,
                .value(
                    "lang", valueName: "code",
                    help: "The poll's language, an ISO 639-1 code such as 'en' (default: the \"language\" setting)."),
                FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions + EverywhereOptions.definitions)
    }

    /// How the closing time is given.
    enum End: Sendable {
        /// A duration from now.
        case after(TimeInterval)
        /// An instant.
        case at(Date)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--question`.
    var question: String
    /// `--option` values.
    var options: [String]
    /// `--ends-in` or `--ends-at`.
    var end: End
    /// Whether both `--ends-in` and `--ends-at` were given.
    var hasConflictingEnds: Bool
    /// `--lang` (else the `language` setting).
    var language: String?
    /// `--everywhere` and its options.
    var everywhere: EverywhereOptions

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        question = try arguments.requiredValue("question")
        options = arguments.values("option")
        language = arguments.value("lang")
        everywhere = EverywhereOptions(parsing: arguments)
        let endsIn = arguments.value("ends-in")
        let endsAt = arguments.value("ends-at")
        hasConflictingEnds = endsIn != nil && endsAt != nil
        if let endsAt {
            guard let date = OrgTimestamp(endsAt).instant else {
                throw CLIError.invalidValue(
                    value: endsAt, option: Self.endsAtOption.synopsis,
                    reason: "Write a timestamp such as 2026-01-02T18:00:00+0100.")
            }
            end = .at(date)
        } else {
            let text = endsIn ?? Self.endsInOption.defaultValue ?? "1d"
            guard let seconds = PollDuration.seconds(in: text) else {
                throw CLIError.invalidValue(
                    value: text, option: Self.endsInOption.synopsis,
                    reason: "Write a number followed by m, h, d or w, e.g. 30m, 12h or 1d.")
            }
            guard seconds > 0 else {
                throw CLIError.invalidValue(
                    value: text, option: Self.endsInOption.synopsis,
                    reason: "A poll must stay open for some time: give a duration above zero, e.g. 30m, 12h or 1d.")
            }
            guard seconds <= PollDuration.maximumSeconds else {
                throw CLIError.invalidValue(
                    value: text, option: Self.endsInOption.synopsis,
                    reason: "A poll can stay open for at most 100 years (5200w); give a shorter duration.")
            }
            end = .after(seconds)
        }
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        try everywhere.validate()
        if hasConflictingEnds {
            throw CLIError.validation("Please give either '--ends-in' or '--ends-at', not both.")
        }
    }

    func run(in context: CommandContext) async throws {
        let question = try TextInput.resolve(question, in: context)
        let timeZone = context.timeZone
        let language = try PostContentOptions.language(option: language, in: context)
        let (options, end) = (options, end)
        let makeDraft: @Sendable (Feed, String?, Date) throws -> PostDraft = { feed, _, now in
            // --ends-in counts from the poll's own time: its ID, which is later than "now" when the second is
            // taken (a burst of posts).
            let start = OrgTimestamp(feed.uniqueID(for: now, timeZone: timeZone)).instant ?? now
            let endDate =
                switch end {
                case .after(let seconds): start.addingTimeInterval(seconds)
                case .at(let date): date
                }
            return try CLIError.composing {
                try PostDraft.poll(
                    question: question, options: options, endsAt: endDate, now: start, timeZone: timeZone,
                    language: language)
            }
        }
        if everywhere.isEnabled {
            try await EverywherePublisher.publish(
                options: feedOptions, publishing: publishing, everywhere: everywhere, in: context, makeDraft: makeDraft)
            return
        }
        try await DraftPublisher.publish(
            options: feedOptions, publishing: publishing, in: context, makeDraft: makeDraft)
    }
}
