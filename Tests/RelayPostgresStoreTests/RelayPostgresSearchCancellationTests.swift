import Foundation
import PostgresStore
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

@testable import RelayPostgresStore

/// A search on PostgreSQL whose task is cancelled (the HTTP client hung up) stops at once, as on SQLite,
/// instead of running until its 1 s statement timeout, and its pooled connection serves the next request.
@Suite(.enabled(if: RelayStoreEngine.tested.contains(.postgres)))
struct RelayPostgresSearchCancellationTests {
    @Test func aCancelledSearchStopsBeforeItsTimeoutAndItsConnectionServesTheNextOne() async throws {
        let h = try await RelayFixtureDatabase.loaded(engine: .postgres)
        let store = try #require(h.store as? RelayPostgresDatabase)
        // Another session holds a lock the search waits for: a slow search that costs the machine no CPU.
        let blocker = try Connection(url: h.path)
        try blocker.execute(sql: "BEGIN")
        try blocker.execute(sql: "LOCK TABLE posts IN ACCESS EXCLUSIVE MODE")
        let clock = ContinuousClock()
        let started = clock.now
        let search = Task { try await store.search(.text("emacs"), page: 1, perPage: 10) }
        var waiting: Int?
        _ = try await eventually(timeout: .milliseconds(800), pollingEvery: .milliseconds(5)) {
            waiting = try blocker.queryOne(
                sql: "SELECT pid FROM pg_locks WHERE NOT granted AND relation = 'posts'::regclass"
            )?.value(at: 0, as: Int.self)
            return waiting != nil
        }
        let backend = try #require(waiting, "the search never waited for the lock")
        search.cancel()
        let result = await search.result
        let elapsed = clock.now - started
        print("search cancellation: the cancelled search returned \(elapsed) after it started")
        // Before the statement timeout (1 s after the search's first statement) could have stopped it.
        #expect(elapsed < .milliseconds(950))
        #expect(throws: RelayReadError.searchOverBudget) { try result.get() }
        try blocker.execute(sql: "ROLLBACK")

        // The connection that ran it is still open (same backend) and back in the pool, which answers at once.
        let alive = try blocker.queryOne(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE pid = $1", arguments: [backend])
        #expect(try alive?.value(at: 0, as: Int.self) == 1)
        let open = await store.pool.openConnectionCount
        #expect(await store.pool.idleConnectionCount == open)
        #expect(try await store.search(.text("emacs"), page: 1, perPage: 10).total == 3)
        #expect(await store.pool.openConnectionCount == open)
    }
}
