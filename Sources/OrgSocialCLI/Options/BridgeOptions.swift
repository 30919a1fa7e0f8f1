import Bridge
import Foundation
import TootClient

/// What the `bridge` commands share: the state file (`--state`), the tokens in the configuration file, and
/// clients for an account's instance.
enum BridgeOptions {
    /// `--state <path>`.
    static let stateOption = OptionDefinition.value(
        "state", valueName: "path",
        help: "The bridge's state file (default: $ORGSOCIAL_BRIDGE_STATE, else "
            + "$XDG_DATA_HOME/orgsocial/bridge.sqlite, else ~/.local/share/orgsocial/bridge.sqlite).")

    /// `--account <name>`.
    static let accountOption = OptionDefinition.value(
        "account", valueName: "name", help: "Only this account (default: every account of the bridge).")

    /// `--wait <seconds>`.
    static let waitOption = OptionDefinition.value(
        "wait", valueName: "seconds", help: "How long to wait for another bridge run on the same state file.",
        defaultValue: "0")

    /// `--wait` as a duration.
    /// - Parameter arguments: the parsed arguments.
    /// - Returns: the wait.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` for anything but a number of seconds.
    static func wait(_ arguments: ParsedArguments) throws -> Duration {
        let text = arguments.value("wait") ?? "0"
        guard let seconds = Double(text), seconds >= 0, seconds.isFinite else {
            throw CLIError.invalidValue(
                value: text, option: waitOption.synopsis, reason: "Give a number of seconds, 0 or more.")
        }
        return .milliseconds(Int(seconds * 1000))
    }

    /// What every bridge command says when the state holds no account.
    static let noAccountsMessage =
        "The bridge has no accounts. Add one with 'orgsocial bridge add-account --instance URL'."

    /// The accounts a command works on, each with an authorized client (its token from the configuration file).
    /// - Parameters:
    ///   - state: the state file.
    ///   - name: `--account`, or `nil` for every account.
    ///   - allowingNone: whether no account at all is an answer (`bridge run` waits for one) rather than an error.
    ///   - context: the command's context.
    /// - Returns: the accounts, by name.
    /// - Throws: ``BridgeError/unknownAccount(name:)``; ``CLIError/validation(_:)`` when there is no account
    ///   (unless `allowingNone`) or an account has no token.
    static func accountClients(
        in state: BridgeState, named name: String?, allowingNone: Bool = false, context: CommandContext
    ) async throws -> [BridgeAccountClient] {
        var accounts = try await state.accounts()
        if let name {
            guard let one = accounts.first(where: { $0.name == name }) else {
                throw BridgeError.unknownAccount(name: name)
            }
            accounts = [one]
        }
        guard !accounts.isEmpty || allowingNone else { throw CLIError.validation(noAccountsMessage) }
        let credentials = try credentials(in: context)
        return try accounts.map { account in
            guard let credential = credentials[account.name] else {
                throw CLIError.validation(
                    "The configuration file holds no token for the bridge account '\(account.name)'. Remove it "
                        + "('orgsocial bridge remove-account \(account.name)') and add it again.")
            }
            let client = try makeClient(instance: account.instanceURL, in: context)
                .configured(with: account.server).authorized(credential.accessToken)
            return BridgeAccountClient(account: account, client: client)
        }
    }

    /// The state file's path: `--state`, else `$ORGSOCIAL_BRIDGE_STATE`, else
    /// `$XDG_DATA_HOME/orgsocial/bridge.sqlite`, else `~/.local/share/orgsocial/bridge.sqlite` (relative
    /// `XDG_DATA_HOME` and `HOME` values are ignored, as the XDG rules say).
    /// - Parameters:
    ///   - option: the `--state` value.
    ///   - environment: the environment variables.
    /// - Returns: the path.
    /// - Throws: ``CLIError/validation(_:)`` when none of them gives a location.
    static func statePath(option: String?, environment: [String: String]) throws -> String {
        var defaultPath: String?
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            defaultPath = data + "/orgsocial/bridge.sqlite"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            defaultPath = home + "/.local/share/orgsocial/bridge.sqlite"
        }
        if let path = try SettingResolver(environment: environment).resolve(
            option: option, variable: stateVariable, default: defaultPath, as: .text)
        {
            return path.value
        }
        throw CLIError.validation(
            "The bridge state file has no location: give one with --state PATH, or set ORGSOCIAL_BRIDGE_STATE, "
                + "XDG_DATA_HOME or HOME.")
    }

    /// Opens the state file named by `--state`, the environment or the default (``statePath(option:environment:)``).
    /// - Parameters:
    ///   - option: the `--state` value.
    ///   - context: the command's context.
    /// - Returns: the open state.
    /// - Throws: ``CLIError/validation(_:)`` when no location is known; ``BridgeError``.
    static func openState(option: String?, in context: CommandContext) async throws -> BridgeState {
        let path = try statePath(option: option, environment: context.environment)
        createDefaultFolders(ofState: path, in: context)
        return try await BridgeState(path: path)
    }

    /// Creates the folders of the state file when it is in the default place (`$XDG_DATA_HOME/orgsocial`,
    /// else `~/.local/share/orgsocial`), as a fresh account may have no `~/.local/share` yet. A path given
    /// with --state or the variable gets only its last folder (``BridgeState``), so that a mistyped one
    /// leaves no tree of folders behind.
    /// - Parameters:
    ///   - path: the state file's path.
    ///   - context: the command's context.
    static func createDefaultFolders(ofState path: String, in context: CommandContext) {
        let defaults = context.environment.filter { $0.key != stateVariable }
        guard (try? statePath(option: nil, environment: defaults)) == path else { return }
        try? FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700])
    }

    /// The variable that names the state file.
    static let stateVariable = "ORGSOCIAL_BRIDGE_STATE"

    /// Opens the state file for a command that only reads it (`bridge accounts`, `bridge status`): a file that
    /// does not exist is not created (a mistyped `--state` leaves nothing behind); the command reads it as
    /// holding no account, after a note naming the path.
    /// - Parameters:
    ///   - option: the `--state` value.
    ///   - context: the command's context.
    /// - Returns: the open state, or `nil` when there is no file.
    /// - Throws: as ``openState(option:in:)``.
    static func existingState(option: String?, in context: CommandContext) async throws -> BridgeState? {
        let path = try statePath(option: option, environment: context.environment)
        guard FileManager.default.fileExists(atPath: path) else {
            context.report("note: there is no bridge state file at \(path) yet ('bridge add-account' makes it)")
            return nil
        }
        return try await BridgeState(path: path)
    }

    /// The tokens saved in the configuration file, by account name.
    /// - Parameter context: the command's context.
    /// - Returns: the credentials.
    /// - Throws: ``CLIError/invalidConfiguration(path:reason:)``.
    static func credentials(in context: CommandContext) throws -> [String: BridgeCredential] {
        try ConfigurationFile.load(in: context).bridgeAccounts ?? [:]
    }

    /// Saves (or with `nil` removes) an account's credential in the configuration file (mode 0600).
    /// - Parameters:
    ///   - credential: the credential, or `nil` to remove it.
    ///   - name: the account's name.
    ///   - context: the command's context.
    /// - Throws: ``CLIError``.
    static func saveCredential(_ credential: BridgeCredential?, named name: String, in context: CommandContext) throws {
        let file = try ConfigurationFile.required(in: context)
        var configuration = try file.load()
        var accounts = configuration.bridgeAccounts ?? [:]
        accounts[name] = credential
        configuration.bridgeAccounts = accounts.isEmpty ? nil : accounts
        try file.save(configuration)
    }

    /// A client for an instance, through the context's transport.
    /// - Parameters:
    ///   - instance: the instance URL.
    ///   - context: the command's context.
    /// - Returns: the client.
    /// - Throws: ``TootClient/TootClientError/invalidInstanceURL(_:reason:)``.
    static func makeClient(instance: URL, in context: CommandContext) throws -> TootClient {
        try TootClient(instanceURL: instance, transport: context.makeTransport())
    }

    /// `2026-01-02T03:04:05Z`.
    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// "500 characters (URLs count 23), 4 media, polls of up to 4 options of 50 characters".
    static func limitsText(_ limits: InstanceLimits) -> String {
        let polls =
            limits.pollMaxOptions > 0
            ? "polls of up to \(limits.pollMaxOptions) options of \(limits.pollMaxCharactersPerOption) characters"
            : "no polls"
        return "\(limits.maxCharacters) characters (URLs count \(limits.charactersPerURL)), "
            + "\(limits.maxMediaAttachments) media, \(polls)"
    }
}
