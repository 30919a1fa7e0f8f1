import Foundation
public import HTTPClient
import HTTPCore

/// What asking for the user's notification stream gave.
public enum TootNotificationStreamOpening: Sendable {
    /// The server streams: the body, read piece by piece (server-sent events).
    case opened(HTTPClientResponseBody)
    /// The server has no streaming API here: it answered `status` (404, or something that is no event
    /// stream, with status 200).
    case unavailable(status: Int, reason: String)
}

extension TootClient {
    /// Opens the user's notification stream, `GET /api/v1/streaming/user/notification` (Mastodon's streaming
    /// API, as server-sent events: `event: notification` with the notification as JSON, `:` comments as
    /// heartbeats).
    /// - Parameter silenceLimit: how long the connection may send nothing at all before the transport ends
    ///   it with a timeout.
    /// - Returns: the open body, or ``TootNotificationStreamOpening/unavailable(status:reason:)`` when the server
    ///   has no such stream.
    /// - Throws: ``TootClientError``: `unauthorized` and `forbidden` for a refused token, `serverError` or
    ///   `httpError` for another status, `network` when the server cannot be reached.
    public func openNotificationStream(silenceLimit: Duration) async throws -> TootNotificationStreamOpening {
        let request = TootRequest(method: .get, path: ["api", "v1", "streaming", "user", "notification"])
        guard let url = request.url(under: instanceURL) else {
            throw TootClientError.invalidInstanceURL(
                instanceURL.absoluteString, reason: "a request URL cannot be formed")
        }
        var headers: HTTPHeaders = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
        if let accessToken { headers["Authorization"] = "Bearer \(accessToken)" }
        let response: HTTPClientStreamingResponse
        do {
            response = try await transport.stream(HTTPClientRequest(url: url, headers: headers, timeout: silenceLimit))
        } catch let error as HTTPClientError {
            throw TootClientError.network(url: url.absoluteString, message: error.localizedDescription)
        }
        let place = url.absoluteString
        switch response.status {
        case 200..<300:
            let type = response.headers["Content-Type"]?.lowercased() ?? ""
            guard type.hasPrefix("text/event-stream") else {
                return .unavailable(
                    status: response.status,
                    reason: "the server answered with \(type.isEmpty ? "no type" : type), not an event stream")
            }
            return .opened(response.body)
        case 404: return .unavailable(status: 404, reason: "the server has no streaming API (404)")
        case 401: throw TootClientError.unauthorized(url: place, message: "the access token was refused")
        case 403: throw TootClientError.forbidden(url: place, message: "the access token may not read notifications")
        case 500..<600: throw TootClientError.serverError(url: place, status: response.status, message: "")
        default: throw TootClientError.httpError(url: place, status: response.status, message: "")
        }
    }

    /// The notification of one streaming event's `data`, or `nil` when it is not one.
    /// - Parameter data: the event's data (a notification as JSON).
    /// - Returns: the notification.
    public static func notification(fromEventData data: String) -> TootNotification? {
        try? TootDates.makeDecoder().decode(TootNotification.self, from: Data(data.utf8))
    }
}
