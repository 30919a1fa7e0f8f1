import OrgSocial

/// `--post <post-url>`: the post a reply, reaction, boost or vote is about, one name for all four
/// commands. The names each command had before (`reply --to`, `react --to`, `vote --poll`) stay as
/// aliases.
enum TargetPostOption {
    /// The option's name.
    static let name = "post"

    /// The definition for one command.
    /// - Parameters:
    ///   - what: what the post is to the command, e.g. "The post replied to".
    ///   - aliases: the command's older names for it.
    /// - Returns: A required `--post <post-url>` option.
    static func definition(_ what: String, aliases: [String] = []) -> OptionDefinition {
        .value(
            name, valueName: "post-url", help: "\(what), <feed URL>#<post ID>, copied exactly.", isRequired: true,
            aliases: aliases)
    }

    /// The post named on a command line.
    /// - Parameter arguments: the parsed command line.
    /// - Returns: The post's reference.
    /// - Throws: ``CLIError`` (a usage error) when the value is not `<feed URL>#<ID>`.
    static func reference(in arguments: ParsedArguments) throws -> PostReference {
        try DraftPublisher.postReference(try arguments.requiredValue(name), option: "--\(name) <post-url>")
    }
}
