import FeedHosting
import Foundation

/// `orgsocial serve token --root <dir> --feed <path> [--revoke]`: creates (or revokes) the bearer tokens
/// that may PUT a feed.
struct ServeTokenCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "token",
            abstract: "Create or revoke a token that may upload a feed with PUT.",
            discussion: """
                Prints a new random token (256 bits, as 64 hex digits) on standard output. Only its \
                SHA-256 hash is stored, in the token file (mode 0600), so the token is shown this once. \
                A running 'orgsocial serve' picks up new and revoked tokens at once.
                """,
            options: [
                .value("root", valueName: "dir", help: "The folder holding the feeds."),
                .value(
                    "feed", valueName: "path",
                    help: "The feed the token may write, relative to the root: 'social.org' or "
                        + "'<name>/social.org'.",
                    isRequired: true),
                .value(
                    "token-file", valueName: "file", help: "The token file.",
                    defaultValue: "<root>/.orgsocial/tokens.json"),
                .flag("revoke", help: "Remove every token of the feed instead."),
            ])
    }

    /// `--root`.
    var root: String?
    /// `--feed`.
    var feed: FeedPath
    /// `--token-file`.
    var tokenFile: String?
    /// `--revoke`.
    var revokes: Bool

    init(parsing arguments: ParsedArguments) throws {
        root = arguments.value("root")
        let feedText = try arguments.requiredValue("feed")
        do {
            feed = try FeedPath(validating: feedText)
        } catch {
            throw CLIError.invalidValue(
                value: feedText, option: "--feed <path>",
                reason: "Give 'social.org' or '<name>/social.org', where the name has no '/' and does not start "
                    + "with '.'.")
        }
        tokenFile = arguments.value("token-file")
        revokes = arguments.flag("revoke")
    }

    func validate() throws {
        if root == nil, tokenFile == nil {
            throw CLIError.validation(
                "Please give the feed folder with '--root <dir>' (or the token file with '--token-file <file>').")
        }
    }

    func run(in context: CommandContext) throws {
        if let root { try FeedNode.checkRoot(path: root) }
        let path = tokenFile ?? FeedTokenStore.defaultPath(root: root ?? ".")
        let store = FeedTokenStore(path: path)
        if revokes {
            let count = try store.revokeTokens(for: feed)
            context.writeLine("Revoked \(count) token\(count == 1 ? "" : "s") of \(feed.relativePath).")
            return
        }
        let token = try store.issueToken(for: feed, now: try context.now())
        context.writeLine(token)
        context.report(
            "note: created a token for \(feed.relativePath); only its hash is stored (in \(path)), so keep it now. "
                + "Use it as 'Authorization: Bearer <token>'.")
    }
}
