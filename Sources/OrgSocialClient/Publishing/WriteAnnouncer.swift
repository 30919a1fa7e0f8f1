public import Foundation
public import HTTPClient
import HTTPCore

/// What follows a successful write, as the official client does it: the mirror is asked to read the feed
/// again (`POST <mirror>/webhook/refresh/` with `{"feed": URL}`), and the feed is registered with the
/// relay (`POST <relay>/feeds/`) the first time it is published from here.
///
/// Both are best effort: each request is bounded by ``timeout``, its outcome is reported, and neither
/// ever fails the write. A registration that succeeded is remembered in the merge-base store's folder, so
/// later writes do not ask the relay again.
///
/// ```swift
/// let announcer = WriteAnnouncer(mirror: mirrorURL, relay: relayURL, remembering: bases)
/// let report = await announcer.announce(feedURL)
/// if case .failed(let reason) = report.mirror { print("the mirror was not told: \(reason)") }
/// ```
public struct WriteAnnouncer: Sendable {
    /// What became of one announcement.
    public enum Outcome: Sendable, Hashable {
        /// Nothing is configured to be told (`mirror` set to `none`, no relay).
        case notConfigured
        /// Not needed: the feed was registered with this relay before.
        case alreadyDone
        /// The server answered 2xx.
        case done
        /// It failed (no answer, a timeout, an error status): why.
        case failed(String)
    }

    /// The outcomes of one write's announcements.
    public struct Report: Sendable, Hashable {
        /// The mirror's refresh.
        public var mirror: Outcome
        /// The relay's registration.
        public var relay: Outcome
    }

    /// The mirror's API base (`https://mirror.org-social.org/api`), or `nil` for none.
    public let mirror: URL?
    /// The relay, or `nil` for none.
    public let relay: URL?
    /// Where registrations are remembered.
    public let registrations: MergeBaseStore
    /// Sends the requests.
    public let transport: any HTTPTransport
    /// How long each request may take.
    public var timeout: Duration

    /// Makes an announcer.
    /// - Parameters:
    ///   - mirror: the mirror's API base, or `nil`.
    ///   - relay: the relay, or `nil`.
    ///   - registrations: where registrations are remembered.
    ///   - transport: what sends the requests.
    ///   - timeout: how long each request may take; 3 s by default.
    public init(
        mirror: URL?, relay: URL?, remembering registrations: MergeBaseStore,
        transport: any HTTPTransport = CurlTransport(), timeout: Duration = .seconds(3)
    ) {
        self.mirror = mirror
        self.relay = relay
        self.registrations = registrations
        self.transport = transport
        self.timeout = timeout
    }

    /// Tells the mirror and, the first time, the relay about a write of `feedURL`, both at once.
    /// - Parameter feedURL: the feed's public URL.
    /// - Returns: what became of each.
    public func announce(_ feedURL: URL) async -> Report {
        async let mirrored = refreshMirror(feedURL)
        async let registered = register(feedURL)
        return Report(mirror: await mirrored, relay: await registered)
    }

    private func refreshMirror(_ feedURL: URL) async -> Outcome {
        guard let mirror else { return .notConfigured }
        return await post(["feed": feedURL.absoluteString], to: mirror, path: "webhook/refresh/")
    }

    private func register(_ feedURL: URL) async -> Outcome {
        guard let relay else { return .notConfigured }
        if registrations.isRegistered(feedURL, with: relay) { return .alreadyDone }
        let outcome = await post(["feed": feedURL.absoluteString], to: relay, path: "feeds/")
        if outcome == .done { registrations.recordRegistration(of: feedURL, with: relay) }
        return outcome
    }

    /// `POST <base>/<path>` with a JSON body, bounded by ``timeout``.
    private func post(_ body: [String: String], to base: URL, path: String) async -> Outcome {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text + "/" + path), let json = try? JSONEncoder().encode(body) else {
            return .failed("\(base.absoluteString) is not a usable URL")
        }
        var request = HTTPClientRequest(
            method: .post, url: url, headers: ["Content-Type": "application/json", "Accept": "application/json"],
            body: Array(json))
        request.timeout = timeout
        do {
            let response = try await transport.send(request)
            if response.isSuccess { return .done }
            // What the server said: an envelope's `errors` (the relay API), a problem's `detail` (the mirror).
            let said = HostEnvelope(body: response.body).flatMap {
                $0.errors.isEmpty ? $0.message : $0.errors.joined(separator: "; ")
            }
            let reason = said.map { ": " + String($0.prefix(300)) } ?? ""
            return .failed("\(url.absoluteString) answered HTTP \(response.status)\(reason)")
        } catch {
            return .failed(error.localizedDescription)
        }
    }
}

extension MergeBaseStore {
    /// Whether `feedURL` was registered with `relay` from here.
    /// - Parameters:
    ///   - feedURL: the feed.
    ///   - relay: the relay.
    /// - Returns: `true` when it was.
    public func isRegistered(_ feedURL: URL, with relay: URL) -> Bool {
        guard let path = registrationPath(feedURL, relay) else { return false }
        return FileManager.default.fileExists(atPath: path)
    }

    /// Remembers that `feedURL` was registered with `relay`.
    /// - Parameters:
    ///   - feedURL: the feed.
    ///   - relay: the relay.
    public func recordRegistration(of feedURL: URL, with relay: URL) {
        guard let path = registrationPath(feedURL, relay, creatingFolder: true) else { return }
        _ = FileManager.default.createFile(atPath: path, contents: Data("\(relay.absoluteString)\n".utf8))
    }
}
