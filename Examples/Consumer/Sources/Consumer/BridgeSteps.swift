import Bridge
import Foundation

/// The bridge's step: its state file and run lock, as `orgsocial bridge` opens them before talking to
/// Mastodon.
enum BridgeSteps {
    /// Bridge: creates and migrates a state file, finds no accounts in it, and takes the run lock twice
    /// (the second try must find it held).
    /// - Parameter path: the state file, created with its folder.
    /// - Throws: ``ConsumerFailure`` or `BridgeError`.
    static func openState(at path: URL) async throws {
        let state = try await BridgeState(path: path.path)
        let migrations = try await state.appliedMigrations()
        try check(!migrations.isEmpty, "the bridge state has no migrations")
        let accounts = try await state.accounts()
        try check(accounts.isEmpty, "a new bridge state has \(accounts.count) accounts")
        let lock = try await BridgeRunLock.acquire(statePath: path.path)
        var busy = false
        do {
            _ = try await BridgeRunLock.acquire(statePath: path.path)
        } catch BridgeError.busy {
            busy = true
        }
        lock.release()
        try await state.close()
        try check(busy, "a second run lock was granted while the first was held")
        print("Bridge: state file with \(migrations.count) migrations, no accounts; the run lock excludes a second run")
    }
}
