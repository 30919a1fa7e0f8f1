/// `--publish` and `--no-publish`, shared by every command that edits a feed.
struct PublishOptions: Sendable {
    /// `--publish`.
    static let publishFlag = OptionDefinition.flag(
        "publish", help: "Also publish the change to the feed's server, then update the file to match.")
    /// `--no-publish`.
    static let noPublishFlag = OptionDefinition.flag(
        "no-publish", help: "Only change the file, even if the configuration publishes automatically.")

    /// Both definitions, in help order.
    static let definitions = [publishFlag, noPublishFlag]

    /// What the command line asked for.
    enum Choice: Sendable {
        /// Neither flag: the configuration decides (`publish.automatic`).
        case configured
        /// `--publish`.
        case publish
        /// `--no-publish`.
        case localOnly
    }

    /// The choice.
    var choice: Choice
    /// Whether both flags were given (a validation error).
    private var isContradictory = false

    /// Reads the flags.
    init(parsing arguments: ParsedArguments) {
        let publish = arguments.flag("publish")
        let localOnly = arguments.flag("no-publish")
        isContradictory = publish && localOnly
        choice = publish ? .publish : localOnly ? .localOnly : .configured
    }

    /// Checks that the flags don't contradict each other.
    /// - Throws: ``CLIError/validation(_:)``.
    func validate() throws {
        if isContradictory {
            throw CLIError.validation("Please give either '--publish' or '--no-publish', not both.")
        }
    }

    /// Whether to publish: the flags, else `publish.automatic` in the configuration.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)``.
    func isEnabled(in context: CommandContext) throws -> Bool {
        switch choice {
        case .publish: true
        case .localOnly: false
        case .configured: try ConfigurationFile.load(in: context).publish?.automatic ?? false
        }
    }
}
