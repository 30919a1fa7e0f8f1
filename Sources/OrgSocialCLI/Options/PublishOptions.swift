/// `--publish`, `--no-publish`, `--force`, the destination's options, `--verbose` and `--json`, shared by every command that edits a feed.
struct PublishOptions: Sendable {
    /// `--publish`.
    static let publishFlag = OptionDefinition.flag(
        "publish", help: "Also publish the change to the feed's server, then update the file to match.")
    /// `--no-publish`.
    static let noPublishFlag = OptionDefinition.flag(
        "no-publish", help: "Only change the file, even if the configuration publishes automatically.")

    /// `--force`.
    static let forceFlag = OptionDefinition.flag(
        "force", help: "Change the file even if it does not look like an Org Social feed.")

    /// The definitions, in help order.
    static let definitions =
        [publishFlag, noPublishFlag, forceFlag, ServerTimeout.option] + WriteReporter.definitions
        + PublishTargetOptions.definitions

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
    /// `--force`: edit the file even if it does not look like an Org Social feed.
    var allowsAnyFile: Bool
    /// Where and how to publish, when given on the command line.
    var target: PublishTargetOptions
    /// `--verbose` and `--json`: what the command reports, and how.
    let output: WriteReporter
    /// Whether both flags were given (a validation error).
    private var isContradictory = false

    /// Reads the flags.
    init(parsing arguments: ParsedArguments) {
        let publish = arguments.flag("publish")
        let localOnly = arguments.flag("no-publish")
        isContradictory = publish && localOnly
        choice = publish ? .publish : localOnly ? .localOnly : .configured
        allowsAnyFile = arguments.flag("force")
        target = PublishTargetOptions(parsing: arguments)
        output = WriteReporter(parsing: arguments)
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
