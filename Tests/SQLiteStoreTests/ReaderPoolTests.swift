import Foundation
import SQLiteStore
import Synchronization
import TestSupport
import Testing

/// How many reads run at once, and the most seen.
private final class Concurrency: Sendable {
    private let counts = Mutex((now: 0, most: 0))
    func enter() {
        counts.withLock {
            $0.now += 1
            $0.most = max($0.most, $0.now)
        }
    }
    func leave() { counts.withLock { $0.now -= 1 } }
    var most: Int { counts.withLock { $0.most } }
}

/// Several read connections to one file, each read on a thread of the pool's own.
struct ReaderPoolTests {
    /// Runs `body` with a writer and a pool of `count` readers on a new file holding a table of `rows`
    /// numbers (0, 1, …), then closes both.
    private func withNumbers(
        rows: Int = 10, readers count: Int, configure: (Connection) throws -> Void = { _ in },
        _ body: (Database, ReaderPool) async throws -> Void
    ) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = folder.path("store.db")
        let writer = try Database(path: path)
        try await writer.write { db in
            try db.execute(sql: "CREATE TABLE numbers (n INTEGER NOT NULL)")
            for n in 0..<rows { try db.execute(sql: "INSERT INTO numbers (n) VALUES (?)", arguments: [n]) }
        }
        let readers = try ReaderPool(path: path, count: count, configure: configure)
        try await body(writer, readers)
        try await readers.close()
        try await writer.close()
    }

    @Test func readsRunSideBySide() async throws {
        try await withNumbers(readers: 2) { _, readers in
            // The first read waits inside its body until the second has run: with one read at a time it
            // would give up after 10 s and the test would fail.
            let firstStarted = Mutex(false)
            let secondRan = DispatchSemaphore(value: 0)
            async let first = readers.read { db -> Bool in
                _ = try db.queryOne(sql: "SELECT count(*) FROM numbers")
                firstStarted.withLock { $0 = true }
                return secondRan.wait(timeout: .now() + 10) == .success
            }
            while !firstStarted.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
            let second = try await readers.read { db in
                defer { secondRan.signal() }
                return try db.queryOne(sql: "SELECT count(*) FROM numbers")?.value(at: 0, as: Int.self)
            }
            #expect(second == 10)
            #expect(try await first)
        }
    }

    @Test func moreReadsThanConnectionsTakeTurnsAndAllFinish() async throws {
        try await withNumbers(readers: 3) { _, readers in
            let running = Concurrency()
            let sums = try await withThrowingTaskGroup(of: Int.self) { group in
                for k in 0..<40 {
                    group.addTask {
                        try await readers.read { db in
                            running.enter()
                            defer { running.leave() }
                            Thread.sleep(forTimeInterval: 0.005)
                            return try db.queryOne(sql: "SELECT sum(n) + ? FROM numbers", arguments: [k])?
                                .value(at: 0, as: Int.self) ?? -1
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sums.sorted() == (0..<40).map { 45 + $0 })
            #expect(running.most <= 3)
            #expect(running.most >= 2)
        }
    }

    @Test func readsSeeWhatTheWriterCommitted() async throws {
        let smallCache: (Connection) throws -> Void = { db in try db.execute(sql: "PRAGMA cache_size = -1024") }
        try await withNumbers(rows: 1, readers: 2, configure: smallCache) { writer, readers in
            let count = { @Sendable in
                try await readers.read { db in
                    try db.queryOne(sql: "SELECT count(*) FROM numbers")?.value(at: 0, as: Int.self) ?? -1
                }
            }
            #expect(try await count() == 1)
            try await writer.write { db in try db.execute(sql: "INSERT INTO numbers (n) VALUES (7)") }
            #expect(try await count() == 2)
            #expect(try await count() == 2)
        }
    }

    @Test func aClosedPoolRefusesReadsWithAnErrorSayingSo() async throws {
        try await withNumbers(readers: 2) { _, readers in
            try await readers.close()
            let error = await #expect(throws: StoreError.self) {
                try await readers.read { db in try db.query(sql: "SELECT 1") }
            }
            #expect(error?.errorDescription?.contains("closed") == true)
        }
    }

    @Test func aPoolSharingTheWritersConnectionReadsThroughIt() async throws {
        let writer = try Database(path: ":memory:")
        try await writer.write { db in
            try db.execute(sql: "CREATE TABLE t (x)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
        }
        let readers = ReaderPool(sharing: writer)
        #expect(readers.count == 1)
        let value = try await readers.read { db in try db.queryOne(sql: "SELECT x FROM t")?[0] }
        #expect(value == .integer(1))
    }
}
