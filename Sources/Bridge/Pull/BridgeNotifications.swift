public import Foundation
import OrgSocialText
public import TootClient

/// A mention or reply from another user on Mastodon, as `orgsocial bridge notifications` shows it.
public struct BridgeNotification: Sendable, Hashable, Codable {
    /// The bridge account it reached.
    public var account: String
    /// The notification's ID on the instance.
    public var id: String
    /// `mention` (a reply to the account is a mention too).
    public var type: String
    /// The author's `user@domain` (`user` when local to the instance).
    public var author: String
    /// The author's display name, if any.
    public var authorName: String?
    /// The status's text, converted to Org.
    public var text: String
    /// The status's page.
    public var url: String?
    /// The status's ID on the instance.
    public var statusID: String?
    /// The ID of the status it replies to, if any.
    public var inReplyToID: String?
    /// When it happened.
    public var createdAt: Date
}

/// Reads an account's mentions (and so the replies to it) from the notifications API, oldest first.
///
/// With `onlyNew`, only the notifications after the account's notification cursor are read (paging with
/// `min_id`), and the cursor then moves to the newest one; without it, the latest page is read and the cursor
/// stays where it is.
public struct BridgeNotifications: Sendable {
    /// The state file (the notification cursors).
    public let state: BridgeState
    /// The account.
    public let account: BridgeAccount
    /// An authorized client for it.
    public let client: TootClient

    /// Makes a reader.
    /// - Parameters:
    ///   - state: the state file.
    ///   - account: the account.
    ///   - client: an authorized client.
    public init(state: BridgeState, account: BridgeAccount, client: TootClient) {
        self.state = state
        self.account = account
        self.client = client
    }

    /// The notifications.
    /// - Parameters:
    ///   - onlyNew: only those not shown before, moving the cursor past them.
    ///   - limit: how many at most (the latest ones without `onlyNew`).
    ///   - now: when the cursor is moved.
    /// - Returns: the notifications, oldest first.
    /// - Throws: `TootClientError`, ``BridgeError``.
    public func fetch(onlyNew: Bool, limit: Int = 20, now: Date = Date()) async throws -> [BridgeNotification] {
        var found: [TootNotification] = []
        if onlyNew {
            let cursor = try await state.notificationCursor(of: account.name)
            struct Enough: Error {}
            do {
                try await client.forEachNewNotification(after: cursor, limit: min(40, max(1, limit))) { item in
                    guard found.count < limit else { throw Enough() }
                    found.append(item)
                }
            } catch is Enough {}
            if let last = found.last { try await state.setNotificationCursor(last.id, of: account.name, at: now) }
        } else {
            let page = try await client.notifications(page: PageRequest(limit: min(40, max(1, limit))))
            found = page.value.sorted { left, right in
                left.createdAt != right.createdAt
                    ? left.createdAt < right.createdAt : (left.id.count, left.id) < (right.id.count, right.id)
            }
        }
        return found.map { Self.convert($0, account: account.name) }
    }

    /// One notification as the bridge shows it, for the account named `account`.
    static func convert(_ item: TootNotification, account: String) -> BridgeNotification {
        var text = ""
        if let status = item.status {
            text = HTMLOrgConverter().convert(StatusImport.statusContent(status, withHTML: true)).body
        }
        return BridgeNotification(
            account: account, id: item.id, type: item.type,
            author: item.account?.acct ?? item.status?.account?.acct ?? "someone",
            authorName: (item.account?.displayName).flatMap { $0.isEmpty ? nil : $0 }, text: text,
            url: item.status.flatMap(StatusImport.link(of:)), statusID: item.status?.id,
            inReplyToID: item.status?.inReplyToId, createdAt: item.createdAt)
    }
}
