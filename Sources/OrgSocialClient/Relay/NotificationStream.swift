import Foundation
public import HTTPClient
import HTTPCore

/// A feed's notifications as they happen: an endless sequence read from a relay's event stream
/// (`GET /sse/notifications/?feed=`, `relay-api.md` §2.19), starting with the first notification logged
/// after iteration starts.
///
/// ```swift
/// let relay = RelayClient(baseURL: URL(string: "https://relay.org-social.org")!)
/// for try await notification in relay.notificationStream(for: "https://example.org/social.org") {
///     print(notification.type, notification.post)
/// }
/// ```
///
/// - The stream is parsed as the HTML Standard says (§9.2.6, `ServerSentEventParser`): `notification`
///   events are decoded as ``RelayNotification``; `connected`, `heartbeat` and comments keep the
///   connection alive.
/// - When the connection fails, breaks or goes silent (nothing, not even a heartbeat, for
///   `Configuration.silenceLimit`), the stream reconnects after a delay: the server's `retry:` if it
///   sent one, else `Configuration.initialReconnectDelay` doubling up to
///   `Configuration.maximumReconnectDelay`, back to the start once a connection works. It sends
///   `Last-Event-ID` when the relay gave event IDs. A relay without IDs cannot replay what was logged
///   while no connection was open, so after each connection opens (at its first event) the stream reads
///   the feed's notifications once (`GET /notifications/`) and passes on those it has not seen. Nothing is
///   passed on twice: a notification is known by its post URL and type.
/// - Only a relay that refuses the request (a 4xx other than 408 and 429) or answers with something that
///   is not an event stream ends the iteration, with an error; a lost relay never does.
/// - Waiting costs no CPU, and cancelling the iterating task ends the iteration at once with
///   `CancellationError`, closing the connection.
public struct NotificationStream: AsyncSequence, Sendable {
    /// One notification for the feed.
    public typealias Element = RelayNotification
    /// What iterating throws.
    public typealias Failure = any Error

    /// How the stream notices a silent connection and waits to reconnect.
    public typealias Configuration = EventStreamReconnection

    /// A change in the stream's connection, for callers that show it.
    public enum ConnectionEvent: Sendable, Hashable {
        /// A connection is open and the relay has spoken on it.
        case connected(url: String)
        /// The connection failed or ended; the next attempt comes after `retryDelay`.
        case disconnected(reason: String, retryDelay: Duration)
    }

    /// The relay.
    public let relay: RelayClient
    /// The feed whose notifications are read, exactly as the relay stores it.
    public let feedURL: String
    /// How the stream waits and reconnects.
    public let configuration: Configuration
    private let onConnectionEvent: (@Sendable (ConnectionEvent) -> Void)?

    /// Makes a stream; nothing is sent until iteration starts.
    /// - Parameters:
    ///   - relay: the relay.
    ///   - feedURL: the feed, exactly as the relay stores it.
    ///   - configuration: how to wait and reconnect.
    ///   - onConnectionEvent: told when a connection opens or is lost (on the iterating task).
    public init(
        relay: RelayClient, feedURL: String, configuration: Configuration = Configuration(),
        onConnectionEvent: (@Sendable (ConnectionEvent) -> Void)? = nil
    ) {
        self.relay = relay
        self.feedURL = feedURL
        self.configuration = configuration
        self.onConnectionEvent = onConnectionEvent
    }

    /// Makes an iterator, which connects on its first ``Iterator/next()``.
    /// - Returns: the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads the stream, reconnecting as needed.
    public struct Iterator: AsyncIteratorProtocol {
        /// How a notification is known, to pass it on once.
        private struct Key: Hashable {
            var post: String
            var type: String
        }

        private let stream: NotificationStream
        /// The open connection's body, if one is open.
        private var body: HTTPClientResponseBody.Iterator?
        /// Whether the open connection has delivered its first event (and been caught up).
        private var isCaughtUp = false
        /// Whether the open connection was asked to replay from an event ID (`Last-Event-ID`).
        private var resumesFromEventID = false
        private var parser = ServerSentEventParser()
        /// The notifications known already: those logged before iteration began, and every one passed on.
        private var seen: Set<Key> = []
        /// Whether ``seen`` holds the notifications logged before iteration began.
        private var hasBaseline = false
        /// Notifications read but not yet returned, oldest first.
        private var pending: [RelayNotification] = []
        /// How many attempts in a row have failed.
        private var failures = 0

        init(stream: NotificationStream) {
            self.stream = stream
        }

        /// The next notification, waiting (and reconnecting) as long as it takes.
        /// - Returns: the notification; never `nil`.
        /// - Throws: `CancellationError` when the task is cancelled;
        ///   ``OrgSocialClientError/relayError(url:statusCode:messages:)`` when the relay refuses the
        ///   stream; ``OrgSocialClientError/invalidResponse(url:reason:)`` when it answers with something
        ///   else than an event stream.
        public mutating func next() async throws -> RelayNotification? {
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                do {
                    try Task.checkCancellation()
                    try await readMore()
                } catch {
                    body = nil
                    if Task.isCancelled { throw CancellationError() }
                    if case Disconnection.refused(let cause) = error { throw cause }
                    if Self.endsTheStream(error) { throw error }
                    failures += 1
                    let delay = reconnectDelay()
                    stream.onConnectionEvent?(.disconnected(reason: Self.reason(error), retryDelay: delay))
                    try await Task.sleep(for: delay)
                }
            }
        }

        /// Connects if no connection is open, else reads the next piece of the stream and its events.
        private mutating func readMore() async throws {
            guard var iterator = body else {
                try await connect()
                return
            }
            let piece = try await iterator.next()
            body = iterator
            guard let piece else { throw Disconnection.ended }
            for event in parser.parse(piece) { try await handle(event) }
        }

        /// Opens a connection (reading the notifications already logged first, the first time).
        private mutating func connect() async throws {
            let relay = stream.relay
            if !hasBaseline {
                let logged = try await relay.notifications(for: stream.feedURL)
                seen.formUnion(logged.items.map(Self.key))
                hasBaseline = true
            }
            let url = try await relay.endpointURL(
                "sse-notifications", fallback: "/sse/notifications/", query: [("feed", stream.feedURL)])
            var headers: HTTPHeaders = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            let resumes = !parser.lastEventID.isEmpty
            if resumes { headers["Last-Event-ID"] = parser.lastEventID }
            let request = HTTPClientRequest(url: url, headers: headers, timeout: stream.configuration.silenceLimit)
            let response: HTTPClientStreamingResponse
            do {
                response = try await relay.transport.stream(request)
            } catch let error as HTTPClientError {
                throw OrgSocialClientError(error)
            }
            guard response.isSuccess else {
                throw OrgSocialClientError.relayError(
                    url: url.absoluteString, statusCode: response.status, messages: [])
            }
            let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
            guard contentType.hasPrefix("text/event-stream") else {
                let answer = contentType.isEmpty ? "no type" : contentType
                throw Disconnection.refused(
                    .invalidResponse(
                        url: url.absoluteString, reason: "the relay answered with \(answer), not an event stream"))
            }
            parser = ServerSentEventParser(lastEventID: parser.lastEventID, reconnectionTime: parser.reconnectionTime)
            body = response.body.makeAsyncIterator()
            isCaughtUp = false
            resumesFromEventID = resumes
        }

        /// Takes one event: the first of a connection catches up; a notification not seen yet is queued.
        private mutating func handle(_ event: ServerSentEvent) async throws {
            if !isCaughtUp {
                isCaughtUp = true
                failures = 0
                stream.onConnectionEvent?(.connected(url: stream.relay.baseURL.absoluteString))
                // Asked for a replay, the relay sends what was missed; else ask for the log once.
                if !resumesFromEventID { try await catchUp() }
            }
            guard event.event == "notification" || event.event == nil,
                let notification = try? JSONDecoder().decode(RelayNotification.self, from: Data(event.data.utf8))
            else { return }
            queue(notification)
        }

        /// Reads the feed's notifications once and queues those not seen yet, oldest first.
        private mutating func catchUp() async throws {
            let logged = try await stream.relay.notifications(for: stream.feedURL)
            for notification in logged.items.reversed() { queue(notification) }
        }

        /// Queues `notification` unless it was seen already.
        private mutating func queue(_ notification: RelayNotification) {
            if seen.insert(Self.key(notification)).inserted { pending.append(notification) }
        }

        /// The delay before the next attempt.
        private func reconnectDelay() -> Duration {
            if let milliseconds = parser.reconnectionTime { return .milliseconds(milliseconds) }
            return stream.configuration.delay(afterFailures: failures)
        }

        private static func key(_ notification: RelayNotification) -> Key {
            Key(post: notification.post, type: notification.type.rawValue)
        }

        /// Whether `error` ends the iteration: the relay refused a request with a status that asking again
        /// will not change (a 4xx other than 408 Request Timeout and 429 Too Many Requests).
        private static func endsTheStream(_ error: any Error) -> Bool {
            guard case .relayError(_, let status, _) = error as? OrgSocialClientError else { return false }
            return (400..<500).contains(status) && status != 408 && status != 429
        }

        /// A short reason for a lost connection.
        private static func reason(_ error: any Error) -> String {
            switch error {
            case Disconnection.ended: "the relay closed the stream"
            case let error as OrgSocialClientError: error.localizedDescription
            default: "\(error)"
            }
        }
    }

    /// Why a connection ended without an error from below.
    private enum Disconnection: Error {
        /// The relay ended the body.
        case ended
        /// The relay answered with something no reconnection will change; the iteration ends with `cause`.
        case refused(OrgSocialClientError)
    }
}

extension RelayClient {
    /// A feed's notifications as they happen, from the relay's event stream (``NotificationStream``).
    /// - Parameters:
    ///   - feedURL: the feed, exactly as the relay stores it.
    ///   - configuration: how to wait and reconnect.
    ///   - onConnectionEvent: told when a connection opens or is lost.
    /// - Returns: the stream; nothing is sent until it is iterated.
    public nonisolated func notificationStream(
        for feedURL: String, configuration: NotificationStream.Configuration = .init(),
        onConnectionEvent: (@Sendable (NotificationStream.ConnectionEvent) -> Void)? = nil
    ) -> NotificationStream {
        NotificationStream(
            relay: self, feedURL: feedURL, configuration: configuration, onConnectionEvent: onConnectionEvent)
    }
}
