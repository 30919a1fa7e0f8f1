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
        if let name, try await state.account(named: name) != nil { throw BridgeError.accountExists(name: name) }
        let client = try BridgeOptions.makeClient(instance: instance, in: context)
        let server = try await client.discover()
        let configured = client.configured(with: server)
        let (accessToken, app) = try await authorize(configured, in: context)
        let account = try await configured.authorized(accessToken).verifyCredentials()
        let accountName = name ?? "\(account.username)@\(instance.host ?? "")"
        try await state.addAccount(
            BridgeAccount(name: accountName, instanceURL: instance, server: server, addedAt: try context.now()))
        do {
            try BridgeOptions.saveCredential(
                BridgeCredential(instance: instance.absoluteString, accessToken: accessToken, app: app),
                named: accountName, in: context)
        } catch {
            try? await state.removeAccount(named: accountName)
            throw error
        }
        let platform = server.platform
        let api = server.apiVersion.map { ", Mastodon API version \($0)" } ?? ""
        context.writeLine("Added \(accountName) (\(account.acct) on \(instance.absoluteString)).")
        context.writeLine("Platform: \(platform.name) \(server.version)\(api)")
        context.writeLine("Limits: \(BridgeOptions.limitsText(server.limits))")
    }

    /// The token: the one given, or one from the OAuth flow (with the app it was issued to).
    private func authorize(_ client: TootClient, in context: CommandContext) async throws -> (String, RegisteredApp?) {
        if let token {
            guard token == "-" else { return (token, nil) }
            let text = try context.readStandardInputText().trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else {
                throw CLIError.validation("--token - read nothing from standard input: pipe the token in.")
            }
            return (text, nil)
        }
        if outOfBand {
            let app = try await client.registerApp(
                name: BridgeOptions.appName, redirectURI: TootClient.outOfBandRedirect, scopes: BridgeOptions.scopes)
            let pending = try client.authorization(for: app, scopes: BridgeOptions.scopes)
            context.report("Open this URL in a browser, authorize orgsocial, then paste the code shown here:")
            context.report("  \(pending.url.absoluteString)")
            let code =
                try context.readStandardInputText().split(whereSeparator: \.isNewline).first
                .map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            guard !code.isEmpty else { throw TootClientError.authorizationFailed(reason: "no code was pasted") }
            let token = try await client.exchange(code: code, authorization: pending, app: app)
            return (token.accessToken, app)
        }
        let listener = try LoopbackRedirectListener()
        do {
            let app = try await client.registerApp(
                name: BridgeOptions.appName, redirectURI: listener.redirectURI, scopes: BridgeOptions.scopes)
            let pending = try client.authorization(
                for: app, scopes: BridgeOptions.scopes, redirectURI: listener.redirectURI)
            context.report("Open this URL in a browser and authorize orgsocial (waiting up to \(authTimeout) s):")
            context.report("  \(pending.url.absoluteString)")
            let code = try await Self.code(from: listener, for: pending, timeout: .seconds(authTimeout))
            await listener.stop()
            let token = try await client.exchange(code: code, authorization: pending, app: app)
            return (token.accessToken, app)
        } catch {
            await listener.stop()
            throw error
        }
    }

    /// The listener's code, or a timeout.
    private static func code(
        from listener: LoopbackRedirectListener, for pending: PendingAuthorization, timeout: Duration
    ) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { try await listener.code(for: pending) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let code = first else {
                await listener.stop()
                throw TootClientError.authorizationFailed(
                    reason: "no answer from the browser within \(timeout.components.seconds) s (try --out-of-band "
                        + "or --token)")
            }
            return code
        }
    }
}
