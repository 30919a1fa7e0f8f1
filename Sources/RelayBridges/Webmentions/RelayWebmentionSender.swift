package import Foundation
package import HTTPClient
import HTTPCore
import OrgSocialText
package import RelayCore
import RelayCrawler

/// Sends the queued outgoing Webmentions (`relay-api.md` §4.7): for each due one, discovers the target's
/// endpoint (the `Link` header, then the first `<link>` or `<a>` with `rel="webmention"` in at most 1 MiB
/// of HTML), refuses endpoints the SSRF guard refuses, and POSTs form-encoded `source` and `target`.
/// A 2xx is `sent`; no endpoint is `no_endpoint`; a failure is retried after 1 h, 2 h, 4 h, … and is
/// `failed` after 5 attempts. A run claims its batch first, so senders in several processes on one
/// PostgreSQL database never send a Webmention twice.
///
/// ```swift
/// let sender = RelayWebmentionSender(store: database, configuration: .init(publicURL: { "https://relay.example.org/bridge/…" }))
/// let report = await sender.runOnce()      // every 5 minutes, up to 50
/// ```
package struct RelayWebmentionSender: Sendable {
    /// Settings; every field has a default.
    package struct Configuration: Sendable {
        /// Whether targets and endpoints on loopback and private addresses may be contacted (tests).
        package var allowPrivateAddresses = false
        /// What sends the requests.
        package var transport: any HTTPTransport = CurlTransport()
        /// The timeout of every request.
        package var timeout: Duration = .seconds(10)
        /// The most HTML read for discovery: a longer page is read up to here and searched in that part.
        package var discoveryBytes = 1024 * 1024
        /// The most Webmentions sent per run.
        package var batchSize = 50
        /// The most attempts before `failed`.
        package var maximumAttempts = 5
        /// The wait after the first failure, doubled after each further one.
        package var retryBase: Duration = .seconds(3600)
        /// How long a run's claim on its Webmentions lasts (longer than a run of ``batchSize`` can take):
        /// other senders on the database leave them alone meanwhile, and a run that stopped midway leaves
        /// its unsent ones to be sent once it has passed.
        package var claimLease: Duration = .seconds(1800)
        /// The `User-Agent` of every request.
        package var userAgent = "Org-Social-Relay (orgsocial)"
        /// The clock.
        package var now: @Sendable () -> Date = { Date() }
        /// Receives a line per attempt.
        package var log: @Sendable (String) -> Void = { _ in }

        /// Makes a configuration with the defaults.
        package init() {}
    }

    /// What one run did.
    package struct Report: Sendable, Hashable {
        /// Makes a report.
        package init(sent: Int = 0, noEndpoint: Int = 0, retried: Int = 0, failed: Int = 0) {
            self.sent = sent
            self.noEndpoint = noEndpoint
            self.retried = retried
            self.failed = failed
        }

        /// Accepted by their endpoints.
        package var sent = 0
        /// Targets without an (acceptable) endpoint.
        package var noEndpoint = 0
        /// Failed attempts to be retried.
        package var retried = 0
        /// Failed for good.
        package var failed = 0
    }

    private let store: any RelayWebmentionStore
    private let configuration: Configuration
    private let addressGuard: AddressGuard

    /// Makes a sender over the queue in `store`.
    package init(store: any RelayWebmentionStore, configuration: Configuration) {
        self.store = store
        self.configuration = configuration
        addressGuard = AddressGuard(allowPrivateAddresses: configuration.allowPrivateAddresses)
    }

    /// Sends up to ``Configuration/batchSize`` due Webmentions.
    package func runOnce() async -> Report {
        var report = Report()
        let now = configuration.now()
        let due: [RelayWebmention]
        do {
            due = try await store.claimDueWebmentions(
                now: now, limit: configuration.batchSize, leaseFor: configuration.claimLease)
        } catch {
            configuration.log("relay webmention queue unreadable reason=\(error)")
            return report
        }
        for mention in due {
            if Task.isCancelled { break }
            let attempts = mention.attempts + 1
            var status = RelayWebmention.Status.sent
            var next = now
            var failure: String?
            do {
                if let endpoint = try await discover(mention.target) {
                    try await post(mention, to: endpoint)
                    report.sent += 1
                } else {
                    status = .noEndpoint
                    report.noEndpoint += 1
                }
            } catch {
                failure = (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
                if attempts >= configuration.maximumAttempts {
                    status = .failed
                    report.failed += 1
                } else {
                    status = .pending
                    next = now + configuration.retryBase.seconds * pow(2, Double(attempts - 1))
                    report.retried += 1
                }
            }
            configuration.log(
                "relay webmention source=\(mention.source) target=\(mention.target) status=\(status.rawValue) "
                    + "attempt=\(attempts)\(failure.map { " reason=\"\($0)\"" } ?? "")")
            do {
                try await store.recordWebmentionAttempt(
                    id: mention.id, status: status, attempts: attempts, nextAttempt: next, error: failure, now: now)
            } catch {
                configuration.log("relay webmention not recorded id=\(mention.id) reason=\(error)")
            }
        }
        return report
    }

    // MARK: - Steps

    /// The target's Webmention endpoint, or `nil` when it names none or only one the guard refuses.
    private func discover(_ target: String) async throws -> URL? {
        guard var current = URL(string: target) else { return nil }
        for _ in 0...5 {
            try await addressGuard.check(current)
            let response = try await configuration.transport.send(
                HTTPClientRequest(
                    url: current, headers: ["Accept": "text/html, */*;q=0.5", "User-Agent": configuration.userAgent],
                    timeout: configuration.timeout, followsRedirects: false,
                    maximumBodyBytes: configuration.discoveryBytes, truncatesOversizedBody: true))
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.headers["Location"],
                let next = URL(string: location, relativeTo: current)?.absoluteURL
            {
                current = next
                continue
            }
            guard response.isSuccess else {
                throw RelayBridgeError.httpStatus(url: current.absoluteString, status: response.status)
            }
            let href =
                Self.endpoint(linkHeaders: response.headers.values(for: "Link"))
                ?? Self.endpoint(html: response.text)
            guard let href, let endpoint = URL(string: href, relativeTo: current)?.absoluteURL,
                endpoint.scheme == "http" || endpoint.scheme == "https"
            else { return nil }
            do {
                try await addressGuard.check(endpoint)
            } catch {
                configuration.log("relay webmention endpoint refused target=\(target) endpoint=\(endpoint)")
                return nil
            }
            return endpoint
        }
        throw RelayBridgeError.fetchFailed(url: target, reason: "too many redirects")
    }

    /// POSTs `source` and `target` form-encoded.
    private func post(_ mention: RelayWebmention, to endpoint: URL) async throws {
        let body =
            "source=\(RelayPercentEncoding.encode(mention.source))&target=\(RelayPercentEncoding.encode(mention.target))"
        let response = try await configuration.transport.send(
            HTTPClientRequest(
                method: .post, url: endpoint,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "User-Agent": configuration.userAgent],
                body: Array(body.utf8), timeout: configuration.timeout, followsRedirects: false,
                maximumBodyBytes: 64 * 1024))
        guard response.isSuccess else {
            throw RelayBridgeError.httpStatus(url: endpoint.absoluteString, status: response.status)
        }
    }

    /// The first `<…>; rel="webmention"` of `Link` header values.
    static func endpoint(linkHeaders: [String]) -> String? {
        for value in linkHeaders {
            for link in value.split(separator: ",") {
                let parts = link.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
                guard let first = parts.first, first.hasPrefix("<"), first.hasSuffix(">") else { continue }
                let rels = parts.dropFirst().compactMap { parameter -> String? in
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "rel" else {
                        return nil
                    }
                    return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")).lowercased()
                }
                if rels.contains(where: { $0.split(separator: " ").contains("webmention") }) {
                    return String(first.dropFirst().dropLast())
                }
            }
        }
        return nil
    }

    /// The `href` of the first `<link>` or `<a>` whose `rel` has the token `webmention`.
    static func endpoint(html: String) -> String? {
        for token in HTMLTokenizer.tokens(html) {
            guard case .startTag(let name, let attributes, _) = token, name == "link" || name == "a",
                let rel = attributes["rel"]?.lowercased(),
                rel.split(whereSeparator: \.isWhitespace).contains("webmention"), let href = attributes["href"]
            else { continue }
            return href
        }
        return nil
    }
}
