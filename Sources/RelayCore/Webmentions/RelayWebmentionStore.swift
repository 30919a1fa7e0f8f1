package import Foundation

/// One queued outgoing Webmention (`relay-api.md` §4.7): a post (`source`, `feed#id`) linking to a page
/// (`target`), and where its delivery stands.
package struct RelayWebmention: Sendable, Hashable {
    /// Where a Webmention's delivery stands.
    package enum Status: String, Sendable, Hashable, CaseIterable {
        /// Not sent yet, or to be retried at ``RelayWebmention/nextAttempt``.
        case pending
        /// The endpoint accepted it (any 2xx).
        case sent
        /// Every attempt failed; no more are made.
        case failed
        /// The target names no Webmention endpoint (or only an unsafe one).
        case noEndpoint = "no_endpoint"
    }

    /// The row's identifier.
    package var id: Int
    /// The linking post, `feed#id`.
    package var source: String
    /// The linked page.
    package var target: String
    /// The status.
    package var status: Status
    /// Attempts made so far.
    package var attempts: Int
    /// When it is due next.
    package var nextAttempt: Date

    /// Makes a queued Webmention.
    /// - Parameters:
    ///   - id: the row's identifier.
    ///   - source: the linking post.
    ///   - target: the linked page.
    ///   - status: the status.
    ///   - attempts: the attempts made.
    ///   - nextAttempt: when it is due.
    package init(id: Int, source: String, target: String, status: Status, attempts: Int, nextAttempt: Date) {
        self.id = id
        self.source = source
        self.target = target
        self.status = status
        self.attempts = attempts
        self.nextAttempt = nextAttempt
    }
}

/// The outgoing Webmention queue (both engines implement it, as part of ``RelayStorage``). Indexing fills
/// it: every http(s) link of a new post, and those an edit adds (``RelayWebmentionTargets``), except
/// `org-social:` mentions, registered feeds and the author's own feed, each (source, target) pair once;
/// bridged posts never.
package protocol RelayWebmentionStore: Sendable {
    /// The pending Webmentions due at `now`, oldest first, at most `limit`.
    func dueWebmentions(now: Date, limit: Int) async throws -> [RelayWebmention]

    /// Claims the pending Webmentions due at `now` for one sender, oldest first, at most `limit`: each is
    /// given the next attempt `now + leaseFor` in the same transaction, so another sender on the same
    /// database (another process on PostgreSQL) does not take it until its attempt is recorded or the lease
    /// runs out (a sender that stopped mid-run). The Webmentions are returned as they were before the claim.
    func claimDueWebmentions(now: Date, limit: Int, leaseFor: Duration) async throws -> [RelayWebmention]

    /// Records an attempt's outcome: the new status, the attempt count, the next attempt time and the
    /// reason of a failure.
    func recordWebmentionAttempt(
        id: Int, status: RelayWebmention.Status, attempts: Int, nextAttempt: Date, error: String?, now: Date
    ) async throws

    /// How many Webmentions have each status (statuses with none left out).
    func webmentionCounts() async throws -> [RelayWebmention.Status: Int]
}
