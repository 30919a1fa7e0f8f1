import Foundation
import OrgSocial

/// `orgsocial follow --file <file> <url> [--label <label>]`: adds a `#+FOLLOW` line, the URL in its canonical
/// spelling; another spelling of a followed feed is refused.
struct FollowCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "follow",
            abstract: "Follow a feed.",
            arguments: [ArgumentDefinition(name: "url", help: "The URL of the social.org file to follow.")],
            options: [
                FeedFileOptions.fileOption,
                .value("label", help: "Your private label for this feed, one word (no spaces)."),
            ] + PublishOptions.definitions)
    }

    /// The feed file.
    var path: String?
    /// `--publish`, `--no-publish`.
    var publishing: PublishOptions
    /// The followed feed.
    var url: String
    /// `--label`.
    var label: String?

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        publishing = PublishOptions(parsing: arguments)
        url = try arguments.requiredArgument("url")
        label = arguments.value("label")
    }

    func validate() throws {
        try FeedFileOptions(path: path).validate()
        try publishing.validate()
        guard FeedFileOptions.isHTTPURL(url) else {
            throw CLIError.invalidValue(
                value: url, option: "<url>", reason: "Give the http:// or https:// URL of the feed's social.org file.")
        }
        if let label, label.split(whereSeparator: \.isWhitespace).count > 1 {
            throw CLIError.invalidValue(
                value: label, option: "--label <label>",
                reason: "A label is one word: '#+FOLLOW: <label> <URL>' is read apart at spaces, so "
                    + "'\(label)' would name another feed. Write it without spaces, e.g. "
                    + "'\(label.split(whereSeparator: \.isWhitespace).joined(separator: "-"))'.")
        }
        if let problem = Self.problem(ofFeedURL: url) {
            throw CLIError.invalidValue(value: url, option: "<url>", reason: problem)
        }
    }

    /// What is wrong with an http(s) URL as the address of a followed feed, which is written into the feed
    /// for everyone to read and fetched by every reader: `nil` when nothing is.
    /// - Parameter url: an http:// or https:// URL.
    /// - Returns: the reason, or `nil`.
    static func problem(ofFeedURL url: String) -> String? {
        guard let components = URLComponents(string: url), components.host?.isEmpty == false else {
            return "It is not a URL that can be fetched: check its host and port."
        }
        if components.user != nil || components.password != nil {
            return "A feed URL carries no user name or password: the #+FOLLOW: line is public. Give the URL "
                + "without 'user:password@'."
        }
        if let port = components.port, !(1...65535).contains(port) {
            return "The port \(port) does not exist: ports run from 1 to 65535."
        }
        return nil
    }

    func run(in context: CommandContext) async throws {
        let file = try FeedFileOptions.path(option: path, in: context)
        let followed = try await FeedChange.apply(
            to: file, publishing: publishing, feedURLOption: nil,
            in: context
        ) {
            try $0.follow(url, label: label)
        }
        try publishing.output.finish(address: followed, file: file, in: context)
    }
}
