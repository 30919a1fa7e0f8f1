import Foundation
import OrgSocial
import OrgSocialClient

/// `orgsocial signup --host <url> --nick <nick>`: registers on an Org Social Host and saves the vfile.
struct SignupCommand: ParsableCommand {
    /// `--host <url>`.
    static let hostOption = OptionDefinition.value(
        "host", valueName: "url", help: "The server's URL, e.g. https://host.org-social.org.", isRequired: true)
    /// `--nick <nick>`.
    static let nickOption = OptionDefinition.value(
        "nick", help: "The nickname to register: 3 to 50 letters, digits, '-' or '_'.", isRequired: true)

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "signup",
            abstract: "Sign up on an Org Social Host and keep the vfile.",
            discussion: """
                Registers the nickname on a server that speaks the Org Social Host API (such as \
                https://host.org-social.org or 'orgsocial serve'), then saves the vfile (the secret upload \
                key) and the feed's public URL in the configuration file \
                ($XDG_CONFIG_HOME/orgsocial/config.json, mode 0600), so that 'orgsocial publish' and \
                --publish use them. Prints the public URL.

                Whoever has the vfile can replace your feed, and a lost vfile cannot be recovered, so it \
                is only printed with --show-vfile.
                """,
            options: [
                hostOption, nickOption,
                .flag("show-vfile", help: "Also print the vfile (keep it secret)."),
                .flag("force", help: "Replace a vfile already saved in the configuration."),
                ServerTimeout.option,
            ])
    }

    /// `--host`.
    var host: String
    /// `--nick`.
    var nick: String
    /// `--show-vfile`.
    var showsVfile: Bool
    /// `--force`.
    var replacesAccount: Bool

    init(parsing arguments: ParsedArguments) throws {
        host = try arguments.requiredValue("host")
        nick = try arguments.requiredValue("nick")
        showsVfile = arguments.flag("show-vfile")
        replacesAccount = arguments.flag("force")
    }

    func validate() throws {
        guard FeedFileOptions.isHTTPURL(host) else {
            throw CLIError.invalidValue(
                value: host, option: Self.hostOption.synopsis, reason: "Give the server's http:// or https:// URL.")
        }
        let allowed = nick.unicodeScalars.allSatisfy {
            $0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "-" || $0 == "_"
        }
        guard (3...50).contains(nick.count), allowed else {
            throw CLIError.invalidValue(
                value: nick, option: Self.nickOption.synopsis,
                reason: "A nickname has 3 to 50 characters: letters, digits, '-' or '_'.")
        }
    }

    func run(in context: CommandContext) async throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        if let existing = configuration.publish?.vfile, !existing.isEmpty, !replacesAccount {
            let publicURL = configuration.publish?.publicURL ?? configuration.feedURL ?? "an unknown feed"
            throw CLIError.accountExists(path: file.path, publicURL: publicURL)
        }
        guard let hostURL = URL(string: host) else {
            throw CLIError.invalidValue(value: host, option: Self.hostOption.synopsis, reason: "It cannot be parsed.")
        }
        let publisher = FeedPublisher(transport: context.makeTransport())
        let account = try await publisher.signup(host: hostURL, nick: nick)

        var publishing = configuration.publish ?? Configuration.Publishing()
        publishing.method = "host"
        publishing.vfile = account.vfile.absoluteString
        publishing.publicURL = account.publicURL.absoluteString
        publishing.token = nil
        configuration.publish = publishing
        configuration.feedURL = account.publicURL.absoluteString
        do {
            try file.save(configuration)
        } catch {
            throw CLIError.vfileNotSaved(
                path: file.path, reason: error.localizedDescription, vfile: account.vfile.absoluteString)
        }
        // The host starts the account with a feed of its own, which nobody wrote. Remembering it lets the
        // first `publish` of any file replace that untouched starting feed, while an edit made to it on the
        // server in the meantime is still refused.
        if let starting = try? await publisher.fetch(account.publicURL) {
            MergeBaseStore(environment: context.environment).recordStartingFeed(
                starting.feed.serialized(), at: account.publicURL)
        }
        context.writeLine(account.publicURL.absoluteString)
        if showsVfile { context.writeLine(account.vfile.absoluteString) }
        context.report(
            "Saved the vfile in \(file.path) (mode 0600). Keep it secret: whoever has it can replace your feed, "
                + "and it cannot be recovered. Publish with 'orgsocial publish --file <file>'.")
    }
}
