public import Foundation
import SQLiteStore

/// What pull and notifications keep besides mappings and cursors (migration `bridge 3`): each account's own
/// ID on its instance, and the newest notification already shown.
extension BridgeState {
    /// The account's ID and `acct` on its instance, as `verify_credentials` gave them.
    /// - Parameter account: the bridge account's name.
    /// - Returns: the ID and acct, or `nil` before the first pull.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func remoteAccount(of account: String) async throws -> (id: String, acct: String)? {
        let row = try await read { db in
            try db.queryOne(sql: "SELECT remote_id, acct FROM remote_accounts WHERE account = ?", arguments: [account])
        }
        guard let row else { return nil }
        return (try row.value(at: 0), try row.value(at: 1))
    }

    /// Records the account's ID and `acct` on its instance.
    /// - Parameters:
    ///   - id: the instance-local account ID.
    ///   - acct: its `acct`.
    ///   - account: the bridge account's name.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func setRemoteAccount(id: String, acct: String, of account: String) async throws {
        try await write { db in
            try Self.requireAccount(account, db)
            try db.execute(
                sql: """
                    INSERT INTO remote_accounts (account, remote_id, acct) VALUES (?, ?, ?)
                    ON CONFLICT (account) DO UPDATE SET remote_id = excluded.remote_id, acct = excluded.acct
                    """, arguments: [account, id, acct])
        }
    }

    /// The newest notification of the account already shown by `bridge notifications --new`.
    /// - Parameter account: the bridge account's name.
    /// - Returns: the notification ID, or `nil` when none was shown yet.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func notificationCursor(of account: String) async throws -> String? {
        let row = try await read { db in
            try db.queryOne(sql: "SELECT value FROM notification_cursors WHERE account = ?", arguments: [account])
        }
        return try row.map { try $0.value(at: 0) }
    }

    /// Moves the account's notification cursor.
    /// - Parameters:
    ///   - value: the newest notification ID shown.
    ///   - account: the bridge account's name.
    ///   - date: when.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func setNotificationCursor(_ value: String, of account: String, at date: Date) async throws {
        try await write { db in
            try Self.requireAccount(account, db)
            try db.execute(
                sql: """
                    INSERT INTO notification_cursors (account, value, updated_at) VALUES (?, ?, ?)
                    ON CONFLICT (account) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
                    """, arguments: [account, value, date.timeIntervalSince1970])
        }
    }
}
