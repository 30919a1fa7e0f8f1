/// A notification as recorded in the store's event log, with its position in the log.
package struct RelayLoggedNotification: Sendable, Hashable {
    /// The log position; strictly increasing.
    package var id: Int
    /// The notification.
    package var notification: InteractionNotice

    /// Makes an entry.
    package init(id: Int, notification: InteractionNotice) {
        self.id = id
        self.notification = notification
    }
}

/// The notification log the SSE streams tail. The indexer appends every notification it reports to a
/// table, so a server sees what a `relay scan` in another process indexed, as well as its own crawler's.
package protocol RelayNotificationLog: Sendable {
    /// The id of the newest logged notification, 0 when the log is empty.
    func latestNotificationID() async throws -> Int

    /// The logged notifications after `id`, oldest first, at most `limit` of them.
    func notifications(after id: Int, limit: Int) async throws -> [RelayLoggedNotification]
}
