import Bridge
import Foundation
import TootClient

/// `orgsocial bridge remove-account <name>`: revokes the token when the bridge registered its app, and
/// forgets the account (its token, mappings, cursors and runs).
struct BridgeRemoveAccountCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "remove-account",
            abstract: "Remove an account from the bridge, revoking its token when possible.",
            discussion: """
                A token the bridge got through authorization is revoked on the server; a token given with \
                --token cannot be, so revoke it in the server's settings. The account's post mappings, \
                cursors and runs are deleted from the state file; its statuses stay on the server.
                """,
            arguments: [ArgumentDefinition(name: "name", help: "The account's name, as 'bridge accounts' lists it.")],
            options: [BridgeOptions.stateOption])
    }

    /// The account's name.
    var name: String
    /// `--state`.
    var statePath: String?

    init(parsing arguments: ParsedArguments) throws {
        name = try arguments.requiredArgument("name")
        statePath = arguments.value("state")
    }

    func run(in context: CommandContext) async throws {
        let state = try await BridgeOptions.openState(option: statePath, in: context)
        let account = try await state.account(named: name)
        let credential = try BridgeOptions.credentials(in: context)[name]
        guard account != nil || credential != nil else { throw BridgeError.unknownAccount(name: name) }
        if let credential {
            if let app = credential.app, let instance = URL(string: credential.instance) {
                do {
                    let client = try BridgeOptions.makeClient(instance: instance, in: context)
                    try await client.revoke(credential.accessToken, app: app)
                    context.writeLine("Revoked the token on \(credential.instance).")
                } catch {
                    context.report(
                        "Warning: the token could not be revoked (\(error.localizedDescription)). Revoke it in the "
                            + "server's settings.")
                }
            } else {
                context.report(
                    "Note: the token was given with --token, so it cannot be revoked from here; revoke it in the "
                        + "server's settings if it is no longer needed.")
            }
            try BridgeOptions.saveCredential(nil, named: name, in: context)
        }
        if account != nil { try await state.removeAccount(named: name) }
        context.writeLine("Removed \(name).")
    }
}
