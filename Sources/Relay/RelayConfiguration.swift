import Foundation
public import HTTPCore
public import HTTPServer
import PostgresStore
import RelayCrawler

/// How `orgsocial relay serve` (and `scan`, `stats`, `add-feed`) runs the relay: the database, the
/// address, the public name, the groups, the crawl interval and the peer relays.
///
/// ```swift
/// var configuration = RelayConfiguration(databasePath: "/var/lib/orgsocial-relay/relay.sqlite")
/// configuration.groups = RelayConfiguration.groups(parsing: "Emacs,Org Social")
/// configuration.siteDomain = "relay.example.org"
/// let service = try await RelayService(configuration: configuration)
/// ```
public struct RelayConfiguration: Sendable {
    /// Where the index is: a SQLite file (created with its folder when missing), or a `postgres://` /
    /// `postgresql://` URL of a PostgreSQL database (migrated when new), which several relay processes
    /// may share.
    public var databasePath: String
    /// The numeric address to listen on; `127.0.0.1` by default (put nginx in front for the public).
    public var host = "127.0.0.1"
    /// The TCP port; 0 picks a free one (read it back from ``RelayService/start()``).
    public var port = 8080
    /// The public host (and port) of the relay without a scheme, as `SITE_DOMAIN` of the reference relay:
    /// used in `/rss.xml` links and to leave this relay out of its own peer list. `nil` means
    /// `localhost:<port>`.
    public var siteDomain: String?
    /// The group display names (`relay-api.md` §2.12), in order; empty means no groups.
    public var groups: [String] = []
    /// The time between the starts of two background crawl passes; `nil` (or zero) crawls only when asked
    /// (`RelayService.scanOnce(forceDiscovery:)`, `orgsocial relay scan`).
    public var scanInterval: Duration? = .seconds(60)
    /// How often the bridges refresh those read in the last 7 days and drop those unread for 90
    /// (`relay-api.md` §2.20); `nil` (or zero) never.
    public var bridgeMaintenanceInterval: Duration? = .seconds(900)
    /// Whether outgoing Webmentions are sent (`relay-api.md` §4.7); `--no-webmentions` turns it off (the
    /// queue still fills, so turning it on later sends what was missed).
    public var sendsWebmentions = true
    /// How often the due Webmentions are sent (up to 50 a run); `nil` (or zero) never.
    public var webmentionInterval: Duration? = .seconds(300)
    /// A file listing peer relays, one URL per line (`relay-api.md` §4.3); `nil` uses
    /// ``defaultPeerRelays``.
    public var relayListPath: String?
    /// The peer relays to use instead of reading ``relayListPath``; tests pass `[]` so that nothing
    /// leaves the machine.
    public var peerRelays: [String]?
    /// Whether feeds on loopback, private and link-local addresses may be registered and crawled (tests and
    /// benchmarks on one machine); `false` for a public relay.
    public var allowPrivateAddresses = false
    /// Limits against slow and greedy clients: request-head deadline, connections and event streams per
    /// address, total event streams, buffered bodies. On by default; behind a reverse proxy, where every
    /// client has the proxy's address, turn the per-address ones off and limit in the proxy.
    public var clientLimits = HTTPDaemon.ClientLimits()
    /// How many `POST /feeds/` registrations one client address may make per hour (and at once); `nil`
    /// for no limit.
    public var registrationRate: TokenBucket.Rate? = TokenBucket.Rate(requests: 60, per: .seconds(3600))
    /// The path prefix the mirror API (what the official Org Social apps read) is served under, `/api/` by
    /// default; `nil` serves no mirror API. A prefix is one or more path segments whose first is not one of
    /// the relay API's (checked when the service starts).
    public var mirrorPrefix: String? = "/api/"
    /// Where the Prometheus metrics listener binds (`GET /metrics`), apart from the API; `nil` (the
    /// default) serves no metrics and counts nothing.
    public var metricsAddress: ListenAddress?
    /// How long stopping after SIGINT or SIGTERM may take before the process exits anyway (status 1).
    public var shutdownDeadline: Duration = .seconds(10)
    /// Receives the relay's log lines (start-up, one structured line per crawl pass, failures).
    public var log: @Sendable (String) -> Void = { _ in }

    /// The two public relays of the reference relay's `relay-list.txt` (`relay-api.md` §4.3).
    public static let defaultPeerRelays = ["https://relay.org-social.org", "https://orgs-relay.adsan.dev"]

    /// A configuration with the defaults for everything but the database.
    ///
    /// - Parameter databasePath: The SQLite file holding the index.
    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// Whether ``databasePath`` names a PostgreSQL database (a `postgres://` or `postgresql://` URL).
    public var usesPostgres: Bool {
        let lowered = databasePath.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// ``databasePath`` as logs and messages show it: a PostgreSQL URL without its password.
    public var databaseDisplayName: String {
        guard usesPostgres else { return databasePath }
        return (try? PostgresURL(databasePath).description) ?? "a PostgreSQL URL that does not parse"
    }

    /// ``siteDomain``, or `localhost:<port>` for the port the relay listens on.
    ///
    /// - Parameter boundPort: The port actually bound (differs from ``port`` when that is 0).
    /// - Returns: The host and port, without a scheme.
    public func effectiveSiteDomain(boundPort: Int? = nil) -> String {
        if let siteDomain, !siteDomain.isEmpty { return siteDomain }
        return "localhost:\(boundPort ?? port)"
    }

    /// The background crawl interval, or `nil` when there is no background crawling.
    public var effectiveScanInterval: Duration? {
        guard let scanInterval, scanInterval > .zero else { return nil }
        return scanInterval
    }

    // MARK: - Parsing

    /// Splits a comma-separated group list (`"Emacs,Org Social"`) into display names, as the reference
    /// relay reads `GROUPS`: each name is trimmed, empty names are dropped.
    ///
    /// - Parameter list: The comma-separated names.
    /// - Returns: The names, in order.
    public static func groups(parsing list: String) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The peer relays this configuration names: ``peerRelays`` when set, else the file at
    /// ``relayListPath``, else ``defaultPeerRelays``.
    ///
    /// - Returns: The peer relay URLs.
    /// - Throws: ``RelayServiceError/cannotReadRelayList(path:reason:)`` when the file cannot be read.
    public func resolvedPeerRelays() throws(RelayServiceError) -> [String] {
        if let peerRelays { return peerRelays }
        guard let relayListPath else { return Self.defaultPeerRelays }
        do {
            return try FeedCrawler.loadRelayList(path: relayListPath)
        } catch RelayCrawlerError.unreadableRelayList(_, let message) {
            throw .cannotReadRelayList(path: relayListPath, reason: message)
        } catch {
            throw .cannotReadRelayList(path: relayListPath, reason: RelayService.sentence(error))
        }
    }

    // MARK: - Default database

    /// Where the database lives when no path is given: `$XDG_DATA_HOME/orgsocial/relay.sqlite`, else
    /// `$HOME/.local/share/orgsocial/relay.sqlite`.
    ///
    /// - Parameter environment: The process environment.
    /// - Returns: The path, or `nil` when neither variable is set.
    public static func defaultDatabasePath(environment: [String: String]) -> String? {
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return "\(data)/orgsocial/relay.sqlite"
        }
        if let home = environment["HOME"], !home.isEmpty {
            return "\(home)/.local/share/orgsocial/relay.sqlite"
        }
        return nil
    }
}
