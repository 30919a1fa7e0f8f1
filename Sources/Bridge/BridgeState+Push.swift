import Foundation
import SQLiteStore

/// Something a push did that is not a status of its own.
public enum PushActionKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A reaction became a favourite of the status it reacts to.
    case favourite
    /// A boost became a reblog of the status it boosts.
    case reblog
    /// `#+PINNED` became a pin of the post's first status.
    case pin
}

/// A favourite, reblog or pin a push made, recorded so it is made once and undone when its post goes.
public struct PushAction: Sendable, Hashable, Codable {
    /// The feed.
    public var feed: String
    /// The account's name.
    public var account: String
    /// The post that asked for it (the reaction, the boost, the pinned post).
    public var postID: String
    /// What was done.
    public var kind: PushActionKind
    /// The status it was done to.
    public var statusID: String

    /// Makes a record.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    ///   - postID: the post.
    ///   - kind: what was done.
    ///   - statusID: the status it was done to.
    public init(feed: String, account: String, postID: String, kind: PushActionKind, statusID: String) {
        self.feed = feed
        self.account = account
        self.postID = postID
        self.kind = kind
        self.statusID = statusID
    }
}

extension BridgeState {
    /// Records a favourite, reblog or pin right after the server made it (migration `bridge 2`).
    /// - Parameter action: the action.
    /// - Throws: ``BridgeError/unknownAccount(name:)``.
    public func saveAction(_ action: PushAction) async throws {
        try await write { db in
            try Self.requireAccount(action.account, db)
            try db.execute(
                sql: """
                    INSERT INTO push_actions (feed, account, post_id, action, status_id) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (feed, account, post_id, action) DO UPDATE SET status_id = excluded.status_id
                    """,
                arguments: [action.feed, action.account, action.postID, action.kind.rawValue, action.statusID])
        }
    }

    /// Every favourite, reblog and pin recorded for a (feed, account) pair, by post ID.
    /// - Parameters:
    ///   - feed: the feed.
    ///   - account: the account's name.
    /// - Returns: the actions.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func actions(feed: String, account: String) async throws -> [PushAction] {
        let rows = try await read { db in
            try db.query(
                sql: """
                    SELECT post_id, action, status_id FROM push_actions WHERE feed = ? AND account = ?
                    ORDER BY post_id, action
                    """, arguments: [feed, account])
        }
        return try rows.compactMap { row in
            guard let kind = PushActionKind(rawValue: try row.value(at: 1)) else { return nil }
            return PushAction(
                feed: feed, account: account, postID: try row.value(at: 0), kind: kind, statusID: try row.value(at: 2))
        }
    }

    /// Forgets an action (after it was undone).
    /// - Parameter action: the action.
    /// - Throws: ``BridgeError/storage(path:reason:)``.
    public func removeAction(_ action: PushAction) async throws {
        try await write { db in
            try db.execute(
                sql: "DELETE FROM push_actions WHERE feed = ? AND account = ? AND post_id = ? AND action = ?",
                arguments: [action.feed, action.account, action.postID, action.kind.rawValue])
        }
    }
}
