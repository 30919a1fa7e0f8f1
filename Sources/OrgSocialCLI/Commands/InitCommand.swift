import Foundation
import OrgSocial
import SystemSupport

/// `orgsocial init [--file <file>] --title <title> --nick <nick> …`: creates a new, valid feed.
struct InitCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "init",
            abstract: "Create a new feed file.",
            discussion: """
                Writes the header keywords and an empty '* Posts' section. An existing file is never \
                replaced unless --force is given.
                """,
            options: [
                .value(
                    "file", short: "f",
                    help: "The social.org file to create (default: $ORGSOCIAL_FILE, else \"file\" in the "
                        + "configuration)."),
                .value("title", help: "The feed's title (#+TITLE).", isRequired: true),
                .value("nick", help: "Your nickname, one word without spaces (#+NICK).", isRequired: true),
                .value("description", help: "A one-line description (#+DESCRIPTION)."),
                .value("avatar", valueName: "url", help: "The URL of a square JPG or PNG image (#+AVATAR)."),
                .value(
                    "language", valueName: "codes",
                    help: "ISO 639-1 codes, e.g. \"en es\" or en,es (#+LANGUAGE)."),
                .flag("force", help: "Replace the file if it exists."),
            ])
    }

    /// `--file`, if given (else the configured file).
    var path: String?
    /// `#+TITLE`.
    var title: String
    /// `#+NICK`.
    var nick: String
    /// `#+DESCRIPTION`.
    var description: String?
    /// `#+AVATAR`.
    var avatar: String?
    /// `#+LANGUAGE` codes.
    var languages: [String]
    /// `--force`.
    var replacesExisting: Bool

    init(parsing arguments: ParsedArguments) throws {
        path = arguments.value("file")
        title = try arguments.requiredValue("title").trimmingCharacters(in: .whitespaces)
        nick = try arguments.requiredValue("nick").trimmingCharacters(in: .whitespaces)
        description = arguments.value("description")?.trimmingCharacters(in: .whitespaces)
        avatar = arguments.value("avatar")?.trimmingCharacters(in: .whitespaces)
        languages =
            try arguments.value("language").map {
                try LanguageInput.list($0, from: .option("--language <codes>"))
            } ?? []
        replacesExisting = arguments.flag("force")
    }

    func validate() throws {
        if let path, path.isEmpty || path == FeedFile.standardInputPath {
            throw CLIError.invalidValue(
                value: path, option: "--file <file>", reason: "Give the path of the file to create.")
        }
        if title.isEmpty {
            throw CLIError.validation("Please give the feed a title with --title; it must not be empty.")
        }
        if nick.isEmpty || nick.contains(where: \.isWhitespace) {
            throw CLIError.invalidValue(
                value: nick, option: "--nick <nick>",
                reason:
                    "A nick is one word without spaces, e.g. '\(nick.split(whereSeparator: \.isWhitespace).joined(separator: "_"))'."
            )
        }
        for (name, value) in [("--title <title>", title), ("--description <description>", description ?? "")]
        where value.contains(where: \.isNewline) {
            throw CLIError.invalidValue(value: value, option: name, reason: "Header values must fit on one line.")
        }
        if let avatar, !FeedFileOptions.isHTTPURL(avatar) {
            throw CLIError.invalidValue(
                value: avatar, option: "--avatar <url>", reason: "Give the full http:// or https:// URL of an image.")
        }
    }

    /// The new file's text.
    var content: String {
        var lines = ["#+TITLE: \(title)", "#+NICK: \(nick)"]
        if let description, !description.isEmpty { lines.append("#+DESCRIPTION: \(description)") }
        if let avatar { lines.append("#+AVATAR: \(avatar)") }
        if !languages.isEmpty { lines.append("#+LANGUAGE: \(languages.joined(separator: " "))") }
        return lines.joined(separator: "\n") + "\n\n* Posts\n"
    }

    func run(in context: CommandContext) throws {
        let path = try FeedFileOptions.path(option: path, in: context)
        if !replacesExisting, FileManager.default.fileExists(atPath: path) {
            throw CLIError.fileExists(path: path)
        }
        let feed = OrgSocialParser().parse(content)
        let diagnostics = FeedValidator().validate(feed)
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            throw CLIError.validation("The new feed would not be valid: \(error.message)")
        }
        try AtomicFile.write(feed.serialized(), to: path)
        for warning in diagnostics {
            context.report("warning: \(path):\(warning.line):\(warning.column): \(warning.message) [\(warning.code)]")
        }
        context.writeLine("Created \(path)")
    }
}
