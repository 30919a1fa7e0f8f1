import Bridge
import Foundation
import TootClient

/// `orgsocial bridge add-account --instance <url> [--name <name>] (--token <token> | [--out-of-band])`:
/// discovers the server, authorizes, verifies the token and stores the account.
struct BridgeAddAccountCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "add-account",
            abstract: "Add a Mastodon-API account to the bridge.",
            discussion: """
                Finds out what the server runs (Mastodon, GoToSocial, Akkoma, Pleroma, …) and its limits, then \
                authorizes: with --token, a token made in the server's settings (--token - reads it from \
                standard input); otherwise in the browser, by opening the printed URL, which redirects back \
                to a listener on 127.0.0.1 (or, with --out-of-band, shows a code to paste). The token is \
                saved in the configuration file (mode 0600), everything else in the state file.
                """,
            options: [
                .value(
                    "instance", valueName: "url", help: "The server, such as https://mastodon.social.", isRequired: true
                ),
                .value("name", help: "The account's name in the bridge (default: user@host)."),
                .value(
                    "token", help: "An access token with the read and write scopes; - reads it from standard input."),
                .flag("out-of-band", help: "Authorize by pasting the code the server shows, without a local listener."),
                .value(
                    "auth-timeout", valueName: "seconds", help: "How long to wait for the browser authorization.",
                    defaultValue: "300"),
                BridgeOptions.stateOption,
            ])
    }

    /// `--instance`, reduced to scheme, host and port.
    var instance: URL
    /// `--name`.
    var name: String?
    /// `--token`.
    var token: String?
    /// `--out-of-band`.
    var outOfBand: Bool
    /// `--auth-timeout`.
    var authTimeout: Int
    /// `--state`.
    var statePath: String?

    init(parsing arguments: ParsedArguments) throws {
        let text = try arguments.requiredValue("instance")
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else {
            throw CLIError.invalidValue(
                value: text, option: "--instance <url>",
                reason: "Give the server's https:// URL, such as "
                    + "https://mastodon.social.")
        }
        var components = URLComponents()
        components.scheme = scheme
        components.host = host
        components.port = url.port
        guard let base = components.url else {
            throw CLIError.invalidValue(value: text, option: "--instance <url>", reason: "It has no usable host.")
        }
        instance = base
        name = arguments.value("name")
        token = arguments.value("token")
        outOfBand = arguments.flag("out-of-band")
        let timeout = arguments.value("auth-timeout") ?? "300"
        guard let seconds = Int(timeout), seconds > 0 else {
            throw CLIError.invalidValue(
                value: timeout, option: "--auth-timeout <seconds>", reason: "Give a whole number of seconds above 0.")
        }
        authTimeout = seconds
        statePath = arguments.value("state")
    }

    func validate() throws {
        if token != nil, outOfBand {
            throw CLIError.validation("--token and --out-of-band exclude each other: a token needs no authorization.")
        }
        if let name, name.isEmpty || name.contains(where: \.isWhitespace) {
            throw CLIError.invalidValue(
                value: name, option: "--name <name>", reason: "Give a name without spaces, such as ana@mastodon.social."
            )
        }
        if token?.isEmpty == true {
            throw CLIError.invalidValue(
                value: "", option: "--token <token>", reason: "Give the token, or - to read it.")
        }
    }

    func run(in context: CommandContext) async throws {
        let state = try await BridgeOptions.openState(option: statePath, in: context)
        let enrollment = BridgeAccountEnrollment(client: try BridgeOptions.makeClient(instance: instance, in: context))
        let added = try await enrollment.addAccount(
            named: name, authorization: try authorization(in: context), to: state, at: try context.now()
        ) { credential, name in
            try BridgeOptions.saveCredential(credential, named: name, in: context)
        }
        let server = added.account.server
        let api = server.apiVersion.map { ", Mastodon API version \($0)" } ?? ""
        context.writeLine(
            "Added \(added.account.name) (\(added.remoteAccount.acct) on \(instance.absoluteString)).")
        context.writeLine("Platform: \(server.platform.name) \(server.version)\(api)")
        context.writeLine("Limits: \(BridgeOptions.limitsText(server.limits))")
    }

    /// Printed when `--token` carries the token itself, which other users see in `ps` and the shell keeps
    /// in its history.
    static let literalTokenWarning =
        "Warning: a token given on the command line is visible to other users (ps) and stays in the shell "
        + "history. Prefer --token - and pipe it in (--token - < token-file), then revoke this one in the "
        + "server's settings if others could have seen it."

    /// How the token is had: the one given (`--token`, `-` for standard input), the code pasted
    /// (`--out-of-band`), or the browser's redirect to a local listener.
    private func authorization(in context: CommandContext) throws -> BridgeAccountEnrollment.Authorization {
        if let token {
            guard token == "-" else {
                context.report(Self.literalTokenWarning)
                return .token(token)
            }
            let text = try context.readStandardInputText().trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                throw CLIError.validation("--token - read nothing from standard input: pipe the token in.")
            }
            return .token(text)
        }
        if outOfBand {
            return .outOfBand { url in
                context.report("Open this URL in a browser, authorize orgsocial, then paste the code shown here:")
                context.report("  \(url.absoluteString)")
                return try context.readStandardInputText().split(whereSeparator: \.isNewline).first.map(String.init)
                    ?? ""
            }
        }
        return .loopback(timeout: .seconds(authTimeout)) { url in
            context.report("Open this URL in a browser and authorize orgsocial (waiting up to \(authTimeout) s):")
            context.report("  \(url.absoluteString)")
        }
    }
}
