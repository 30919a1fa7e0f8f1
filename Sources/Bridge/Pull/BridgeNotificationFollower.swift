import Foundation
public import HTTPClient
import HTTPCore
public import TootClient

/// An account's new mentions (and so replies to it) as they happen: an endless sequence read from
/// Mastodon's streaming API (`GET /api/v1/streaming/user/notification`) where the server offers it, else
/// from the notifications API every ``Configuration/pollInterval`` (`min_id` after the newest one seen).
///
/// ```swift
/// let follower = BridgeNotificationFollower(account: account, client: client)
/// for try await mention in follower { print(mention.author, mention.text) }
/// ```
///
/// - It starts after the newest notification there is when iteration starts.
/// - A stream that fails, ends or goes silent (nothing, not even a heartbeat comment, for
///   the silence limit of ``Configuration/reconnection``) is opened again after a delay that doubles from
///   its first to its longest (`EventStreamReconnection`); each time a stream opens, the notifications
///   logged meanwhile are read once, so none is missed. A server that answers 404 (or no event stream)
///   is polled instead from then on. Nothing is passed on twice (a notification is known by its ID).
/// - Only a refused token (401, 403) ends the iteration, with the client's error; a lost server never does.
/// - Waiting costs no CPU; cancelling the iterating task ends the iteration with `CancellationError`.
public struct BridgeNotificationFollower: AsyncSequence, Sendable {
    /// One new mention.
    public typealias Element = BridgeNotification
    /// What iterating throws.
    public typealias Failure = any Error

    /// How the follower polls, notices a silent stream and waits to reconnect.
    public struct Configuration: Sendable, Hashable {
        /// The time between two reads of the notifications API when the server does not stream; 60 s by default.
        public var pollInterval: Duration
        /// How a silent stream is noticed and how long to wait before the next attempt.
        public var reconnection: EventStreamReconnection

        /// Makes a configuration.
        /// - Parameters:
        ///   - pollInterval: the polling interval.
        ///   - reconnection: the silence limit and the delays between attempts.
        public init(pollInterval: Duration = .seconds(60), reconnection: EventStreamReconnection = .init()) {
            self.pollInterval = pollInterval
            self.reconnection = reconnection
        }
    }

    /// A change in how the follower reads, for callers that show it.
    public enum Event: Sendable, Hashable {
        /// A stream is open.
        case streaming
        /// The server has no stream; the notifications API is polled from now on.
        case polling(reason: String)
        /// Reading failed; the next attempt comes after `retryDelay`.
        case lost(reason: String, retryDelay: Duration)
    }

    /// The account.
    public let account: BridgeAccount
    /// An authorized client for it.
    public let client: TootClient
    /// How to wait and reconnect.
    public let configuration: Configuration
    private let onEvent: (@Sendable (Event) -> Void)?

    /// Makes a follower; nothing is sent until iteration starts.
    /// - Parameters:
    ///   - account: the account.
    ///   - client: an authorized client for it.
    ///   - configuration: how to wait and reconnect.
    ///   - onEvent: told when a stream opens, when polling starts and when reading fails.
    public init(
        account: BridgeAccount, client: TootClient, configuration: Configuration = Configuration(),
        onEvent: (@Sendable (Event) -> Void)? = nil
    ) {
        self.account = account
        self.client = client
        self.configuration = configuration
        self.onEvent = onEvent
    }

    /// Makes an iterator, which reads the starting point on its first ``Iterator/next()``.
    /// - Returns: the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(follower: self)
    }

    /// Reads the stream or polls, reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
        private let follower: BridgeNotificationFollower
        /// The newest notification seen (the `min_id` of the next read); `nil` before the start is read.
        private var cursor: String?
        private var hasStart = false
        /// Whether the server streams (until it says it does not).
        private var streams = true
        /// Whether the notifications API has been polled once since polling began.
        private var hasPolled = false
        private var body: HTTPClientResponseBody.Iterator?
        private var parser = ServerSentEventParser()
        private var seen: Set<String> = []
        private var pending: [BridgeNotification] = []
        private var failures = 0

        init(follower: BridgeNotificationFollower) {
            self.follower = follower
        }

        /// The next new mention, waiting (and reconnecting) as long as it takes.
        /// - Returns: the mention; never `nil`.
        /// - Throws: `CancellationError` when the task is cancelled; `TootClientError` `unauthorized` or
        ///   `forbidden` when the token is refused.
        public mutating func next() async throws -> BridgeNotification? {
            while pending.isEmpty {
                do {
                    try Task.checkCancellation()
                    try await readMore()
                } catch {
                    body = nil
                    if Task.isCancelled { throw CancellationError() }
                    if Self.endsTheIteration(error) { throw error }
                    failures += 1
                    let delay = reconnectDelay()
                    follower.onEvent?(.lost(reason: Self.reason(error), retryDelay: delay))
                    try await Task.sleep(for: delay)
                }
            }
            return pending.removeFirst()
        }

        private mutating func readMore() async throws {
            let client = follower.client
            if !hasStart {
                let latest = try await client.notifications(page: PageRequest(limit: 1))
                cursor = latest.value.first?.id ?? "0"
                hasStart = true
                return
            }
            guard streams else {
                if hasPolled { try await Task.sleep(for: follower.configuration.pollInterval) }
                hasPolled = true
                try await catchUp()
                failures = 0
                return
            }
            guard var iterator = body else {
                let silenceLimit = follower.configuration.reconnection.silenceLimit
                switch try await client.openNotificationStream(silenceLimit: silenceLimit) {
                case .opened(let opened):
                    body = opened.makeAsyncIterator()
                    parser = ServerSentEventParser()
                    follower.onEvent?(.streaming)
                    // What was logged while no stream was open.
                    try await catchUp()
                    failures = 0
                case .unavailable(_, let reason):
                    streams = false
                    follower.onEvent?(.polling(reason: reason))
                }
                return
            }
            let piece = try await iterator.next()
            body = iterator
            guard let piece else { throw StreamEnded() }
            for event in parser.parse(piece) where event.event == "notification" {
                if let notification = TootClient.notification(fromEventData: event.data) { queue(notification) }
            }
        }

        /// Reads the mentions after the cursor once, oldest first.
        private mutating func catchUp() async throws {
            var found: [TootNotification] = []
            cursor = try await follower.client.forEachNewNotification(after: cursor) { found.append($0) }
            for notification in found { queue(notification) }
        }

        /// Queues a mention not seen yet, moving the cursor past it.
        private mutating func queue(_ notification: TootNotification) {
            guard notification.type == "mention", seen.insert(notification.id).inserted else { return }
            if cursor.map({ ($0.count, $0) < (notification.id.count, notification.id) }) ?? true {
                cursor = notification.id
            }
            pending.append(BridgeNotifications.convert(notification, account: follower.account.name))
        }

        private func reconnectDelay() -> Duration {
            follower.configuration.reconnection.delay(afterFailures: failures)
        }

        private static func endsTheIteration(_ error: any Error) -> Bool {
            switch error as? TootClientError {
            case .unauthorized?, .forbidden?: true
            default: false
            }
        }

        private static func reason(_ error: any Error) -> String {
            if error is StreamEnded { return "the server closed the stream" }
            return error.localizedDescription
        }
    }

    /// The server ended the stream's body.
    private struct StreamEnded: Error {}
}
