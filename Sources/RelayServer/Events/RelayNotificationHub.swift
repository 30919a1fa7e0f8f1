import RelayCore

/// What an open event stream is told: a notification, or that a heartbeat is due.
enum RelayStreamItem: Sendable, Equatable {
    case notification(InteractionNotice)
    case heartbeat
}

/// Fans the notification log out to every open `/sse/notifications/` stream with one shared poller.
///
/// The poller runs only while at least one stream is subscribed: every `pollInterval` it reads the
/// log entries after its cursor and hands each to the subscribers that want it (the global stream
/// wants all, a per-feed stream those whose `targetFeed` is its feed). A subscriber starts after the
/// newest entry logged when it subscribed and never gets an entry twice.
actor RelayNotificationHub {
    private struct Subscriber {
        let feed: String?
        let continuation: AsyncStream<RelayStreamItem>.Continuation
        var lastDelivered: Int
    }

    private let notificationLog: any RelayNotificationLog
    private let pollInterval: Duration
    private let log: @Sendable (String) -> Void
    private var subscribers: [Int: Subscriber] = [:]
    private var nextSubscriberID = 0
    private var cursor = 0
    private var poller: Task<Void, Never>?
    private var pollerEpoch = 0

    /// The most log entries read per query.
    private static let batchSize = 500

    /// Makes a hub over a notification log.
    init(notificationLog: any RelayNotificationLog, pollInterval: Duration, log: @escaping @Sendable (String) -> Void) {
        self.notificationLog = notificationLog
        self.pollInterval = pollInterval
        self.log = log
    }

    /// The number of open subscriptions.
    var subscriberCount: Int { subscribers.count }

    /// Subscribes a stream: from now on, matching notifications are yielded to `continuation`.
    ///
    /// - Parameters:
    ///   - feed: The feed whose notifications are wanted, or `nil` for all.
    ///   - continuation: Where to yield them.
    /// - Returns: The subscription's id, for ``unsubscribe(_:)``.
    func subscribe(feed: String?, continuation: AsyncStream<RelayStreamItem>.Continuation) async -> Int {
        let latest: Int
        do {
            latest = try await notificationLog.latestNotificationID()
        } catch {
            log("relay-sse error=latest-notification reason=\"\(error)\"")
            latest = cursor
        }
        let id = nextSubscriberID
        nextSubscriberID += 1
        subscribers[id] = Subscriber(feed: feed, continuation: continuation, lastDelivered: latest)
        if poller == nil {
            cursor = latest
            startPoller()
        } else {
            cursor = min(cursor, latest)
        }
        return id
    }

    /// Ends a subscription; the poller stops with the last one.
    func unsubscribe(_ id: Int) {
        subscribers.removeValue(forKey: id)?.continuation.finish()
        if subscribers.isEmpty {
            poller?.cancel()
            poller = nil
        }
    }

    private func startPoller() {
        pollerEpoch += 1
        let epoch = pollerEpoch
        let interval = pollInterval
        poller = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard !Task.isCancelled, let hub = self else { return }
                await hub.poll(epoch: epoch)
            }
        }
    }

    /// Reads every entry after the cursor and delivers it.
    private func poll(epoch: Int) async {
        while epoch == pollerEpoch, !subscribers.isEmpty {
            let entries: [RelayLoggedNotification]
            do {
                entries = try await notificationLog.notifications(after: cursor, limit: Self.batchSize)
            } catch {
                log("relay-sse error=read-notifications reason=\"\(error)\"")
                return
            }
            guard epoch == pollerEpoch else { return }
            for entry in entries {
                deliver(entry)
                cursor = max(cursor, entry.id)
            }
            if entries.count < Self.batchSize {
                return
            }
        }
    }

    private func deliver(_ entry: RelayLoggedNotification) {
        for (id, subscriber) in subscribers where entry.id > subscriber.lastDelivered {
            subscribers[id]?.lastDelivered = entry.id
            if subscriber.feed == nil || subscriber.feed == entry.notification.targetFeed {
                subscriber.continuation.yield(.notification(entry.notification))
            }
        }
    }
}
