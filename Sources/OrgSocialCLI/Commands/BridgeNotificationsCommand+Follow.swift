import Bridge
import Foundation

extension BridgeNotificationsCommand {
    /// `--follow`: reads each account's new mentions (``BridgeNotificationFollower``: the streaming API, or
    /// polling every `--interval` seconds) until interrupted and prints each as it arrives. A lost server
    /// gets one line on standard error and a reconnection, never an exit; Ctrl-C ends the command (exit
    /// status 130).
    /// - Parameters:
    ///   - accounts: the accounts and their clients.
    ///   - context: the command's context.
    /// - Throws: ``CLIError/exit(_:)`` when interrupted; the client's error when a token is refused.
    func follow(_ accounts: [BridgeAccountClient], in context: CommandContext) async throws {
        let writer = ProgressWriter(context.writeStandardError)
        let configuration = BridgeNotificationFollower.Configuration(pollInterval: .seconds(interval))
        let printsJSON = self.printsJSON
        let output = ProgressWriter(context.writeStandardOutput)
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for entry in accounts {
                    let name = entry.account.name
                    let follower = BridgeNotificationFollower(
                        account: entry.account, client: entry.client, configuration: configuration
                    ) { event in
                        if let line = Self.note(event, account: name) { writer.write(line) }
                    }
                    group.addTask {
                        for try await item in follower {
                            output.write(printsJSON ? try JSONOutput.line(Entry(item)) : Self.render(item))
                        }
                    }
                }
                try await group.waitForAll()
            }
        } catch is CancellationError {
            // Interrupted (Ctrl-C, or the caller's task): the end of following, not a failure to report.
            throw CLIError.exit(Interruption.exitStatus)
        }
    }

    /// The standard error line for a change in how an account is read, if it gets one.
    static func note(_ event: BridgeNotificationFollower.Event, account: String) -> String? {
        switch event {
        case .streaming: return nil
        case .polling(let reason): return "note: \(account): \(reason); asking for new mentions instead.\n"
        case .lost(let reason, let delay):
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            return
                "note: \(account): lost the server (\(reason)); trying again in \(String(format: "%.1f", seconds)) s.\n"
        }
    }
}
