import Bridge
import Foundation
import TootClient

/// One run of a bridge command that talks to accounts: the run lock held, the state open, and a client per
/// account (its token from the configuration file, its stored server profile).
struct BridgeRun {
    /// The lock; released by ``end()``.
    let lock: BridgeRunLock
    /// The state file.
    let state: BridgeState
    /// The accounts to work on, each with its client, by name.
    let accounts: [BridgeAccountClient]

    /// Takes the lock of the state file, opens it and makes the accounts' clients.
    /// - Parameters:
    ///   - statePath: `--state`.
    ///   - wait: `--wait`.
    ///   - account: `--account`, or `nil` for every account.
    ///   - context: the command's context.
    /// - Returns: the run.
    /// - Throws: ``BridgeError`` (busy, unknown account), ``CLIError`` (no token, no location).
    static func begin(statePath: String?, wait: Duration, account: String?, in context: CommandContext) async throws
        -> BridgeRun
    {
        let path = try BridgeOptions.statePath(option: statePath, environment: context.environment)
        BridgeOptions.createDefaultFolders(ofState: path, in: context)
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            // One level only, as the state file's own folder (``BridgeState``).
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        }
        let lock = try await BridgeRunLock.acquire(statePath: path, waitingUpTo: wait)
        do {
            let state = try await BridgeOptions.openState(option: path, in: context)
            let clients = try await BridgeOptions.accountClients(in: state, named: account, context: context)
            return BridgeRun(lock: lock, state: state, accounts: clients)
        } catch {
            lock.release()
            throw error
        }
    }

    /// Releases the lock.
    func end() { lock.release() }
}
