import Foundation
import HTTPCore
import RelayCore

/// One `/sse/notifications/` stream (`relay-api.md` §2.19): `connected` first, then a `notification`
/// event per matching logged notification and a `heartbeat` every interval, with Python `json.dumps`
/// data lines and no `id:` or `retry:` fields.
enum RelayEventStream {
    /// The body of a stream for `feed` (`nil`: the global stream).
    ///
    /// It subscribes to the hub before it writes `connected`, and when the client goes away (the write
    /// fails or the task is cancelled) it stops its heartbeat and unsubscribes.
    static func body(feed: String?, hub: RelayNotificationHub, heartbeatInterval: Duration) -> HTTPBodyStream {
        HTTPBodyStream { writer in
            let (items, continuation) = AsyncStream<RelayStreamItem>.makeStream(bufferingPolicy: .bufferingNewest(1024))
            let subscription = await hub.subscribe(feed: feed, continuation: continuation)
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while !Task.isCancelled {
                            try await Task.sleep(for: heartbeatInterval)
                            continuation.yield(.heartbeat)
                        }
                    }
                    try await writer.write(connectedEvent(feed: feed))
                    for await item in items {
                        switch item {
                        case .heartbeat:
                            try await writer.write(heartbeatEvent(now: Date()))
                        case .notification(let notification):
                            try await writer.write(notificationEvent(notification, global: feed == nil))
                        }
                    }
                    group.cancelAll()
                }
            } catch {
                await hub.unsubscribe(subscription)
                throw error
            }
            await hub.unsubscribe(subscription)
        }
    }

    /// `event: connected` with `{"feed": F, "status": "connected"}` or `{"status": "connected"}`.
    static func connectedEvent(feed: String?) -> ServerSentEvent {
        var members: [(String, JSONValue)] = []
        if let feed {
            members.append(("feed", .string(feed)))
        }
        members.append(("status", "connected"))
        return event("connected", .object(members))
    }

    /// `event: heartbeat` with `{"status": "alive", "timestamp": <unix seconds>}`.
    static func heartbeatEvent(now: Date) -> ServerSentEvent {
        event(
            "heartbeat",
            .object([("status", "alive"), ("timestamp", .int(Int(now.timeIntervalSince1970.rounded(.down))))]))
    }

    /// `event: notification`: `type`, `post`, then `emoji`, `parent`, `boosted` when set, and on the
    /// global stream `target_feed` last.
    static func notificationEvent(_ notification: InteractionNotice, global: Bool) -> ServerSentEvent {
        var members: [(String, JSONValue)] = [
            ("type", .string(notification.kind.rawValue)), ("post", .string(notification.post)),
        ]
        if let emoji = notification.emoji {
            members.append(("emoji", .string(emoji)))
        }
        if let parent = notification.parent {
            members.append(("parent", .string(parent)))
        }
        if let boosted = notification.boosted {
            members.append(("boosted", .string(boosted)))
        }
        if global {
            members.append(("target_feed", .string(notification.targetFeed)))
        }
        return event("notification", .object(members))
    }

    private static func event(_ name: String, _ data: JSONValue) -> ServerSentEvent {
        ServerSentEvent(event: name, data: String(decoding: data.encoded(style: .python), as: UTF8.self))
    }
}
