import Foundation
import OrgSocial

/// `orgsocial post --file <file> --text <text> …`: appends a post (or a group post).
struct PostCommand: ParsableCommand {
    /// `--text <text>`.
    static let textOption = OptionDefinition.value(
        "text", help: "The post's text (Org markup); '-' reads it from standard input.", isRequired: true)
    /// `--group <group>`.
    static let groupOption = OptionDefinition.value(
        "group",
        help: "Post into a relay group: its name, a space, the relay URL (\"Emacs https://relay.example.org\").")

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "post",
            abstract: "Append a post.",
            discussion: """
                Prints the new post's URL, <feed URL>#<ID>, when the feed URL is known (--feed-url or \
                $ORGSOCIAL_FEED_URL), otherwise its ID. The ID is the current time ($ORGSOCIAL_NOW \
                overrides it) in the local time zone ($TZ).
                """,
            options: [FeedFileOptions.fileOption, textOption] + PostContentOptions.definitions + [
                groupOption, FeedFileOptions.feedURLOption,
            ] + PublishOptions.definitions + EverywhereOptions.definitions)
    }

    /// `--file` and `--feed-url`.
    var feedOptions: FeedFileOptions
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// `--text`.
    var text: String
    /// `--lang`, `--tag`, `--mood`, `--visibility`.
    var content: PostContentOptions
    /// `--group`.
    var group: GroupReference?
    /// `--everywhere` and its options.
    var everywhere: EverywhereOptions

    init(parsing arguments: ParsedArguments) throws {
        feedOptions = FeedFileOptions(parsing: arguments)
        publishing = PublishOptions(parsing: arguments)
        text = try arguments.requiredValue("text")
        content = try PostContentOptions(parsing: arguments)
        everywhere = EverywhereOptions(parsing: arguments)
        if let value = arguments.value("group") {
            guard let group = GroupReference(parsing: value), FeedFileOptions.isHTTPURL(group.relayURL) else {
                throw CLIError.invalidValue(
                    value: value, option: Self.groupOption.synopsis,
                    reason: "Give the group's name, then its relay URL, e.g. \"Emacs https://relay.example.org\".")
            }
            self.group = group
        }
    }

    func validate() throws {
        try feedOptions.validate()
        try publishing.validate()
        try everywhere.validate()
        if group != nil, everywhere.isEnabled {
            throw CLIError.validation("Group posts stay in the feed; drop '--everywhere' or '--group'.")
        }
        if group != nil, content.visibility == .mention {
            throw CLIError.validation(
                "Visibility does not apply to group posts; drop '--visibility mention' or '--group'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let text = try TextInput.resolve(text, in: context)
        let language = try content.language(in: context)
        let draft = try CLIError.composing {
            if let group {
                var draft = try PostDraft.groupPost(in: group, text: text, language: language, tags: content.tags)
                if let mood = content.mood?.trimmingCharacters(in: .whitespaces), !mood.isEmpty { draft.mood = mood }
                return draft
            }
            return try PostDraft.post(
                text, language: language, tags: content.tags, mood: content.mood, visibility: content.visibility)
        }
        if everywhere.isEnabled {
            try await EverywherePublisher.publish(
                options: feedOptions, publishing: publishing, everywhere: everywhere, in: context
            ) { _, _, _ in draft }
            return
        }
        try await DraftPublisher.publish(draft, options: feedOptions, publishing: publishing, in: context)
    }
}
