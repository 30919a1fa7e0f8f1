import Foundation
import SQLiteStore
import TestSupport
import Testing

/// The background checkpointer: it copies a writer's commits into the database file on its own thread,
/// keeps the WAL bounded, and gives the writer its automatic checkpoints back.
@Suite struct WALCheckpointerTests {
    /// The size of the file at `path` (0 when missing).
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
    }

    /// A new database at `path` with a `blobs` table, its writer's checkpoints handed to a checkpointer.
    static func writer(at path: String, threshold: Int) async throws -> (Database, WALCheckpointer) {
        let writer = try Database(path: path)
        try await writer.read { db in try db.execute(sql: "CREATE TABLE blobs (id INTEGER PRIMARY KEY, data BLOB)") }
        let checkpointer = try WALCheckpointer(path: path, threshold: threshold)
        try await writer.handOffCheckpoints(to: checkpointer)
        return (writer, checkpointer)
    }

    /// Commits `count` transactions of 4 KiB rows (about 4 pages each) on `writer`.
    static func commit(_ count: Int, on writer: Database, after: @Sendable () -> Void = {}) async throws {
        for _ in 0..<count {
            try await writer.write { db in
                for _ in 0..<4 {
                    try db.execute(sql: "INSERT INTO blobs (data) VALUES (randomblob(4000))", arguments: [])
                }
            }
            after()
        }
    }

    @Test func commitsPastTheThresholdAreCopiedIntoTheFileWithoutTheWriter() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("test.sqlite")
        let (writer, checkpointer) = try await Self.writer(at: path, threshold: 20)
        let before = Self.size(path)

        // 10 commits leave about 40 pages in the WAL: past this threshold, far below SQLite's own (1,000).
        try await Self.commit(10, on: writer)
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.size(path) < before + 30 * 4096, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(Self.size(path) >= before + 30 * 4096)

        try await writer.takeBackCheckpoints()
        try await checkpointer.close()
        let autocheckpoint = try await writer.read { db in
            try db.queryOne(sql: "PRAGMA wal_autocheckpoint")?.value(at: 0, as: Int.self)
        }
        #expect(autocheckpoint == 1000)
        let rows = try await writer.read { db in
            try db.queryOne(sql: "SELECT count(*) FROM blobs")?.value(at: 0, as: Int.self)
        }
        #expect(rows == 40)
        try await writer.close()
    }

    @Test func theWALStaysNearItsLimitUnderABusyWriter() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("test.sqlite")
        let (writer, checkpointer) = try await Self.writer(at: path, threshold: 8)

        // 300 commits write about 1,200 pages; the WAL restarts once a commit leaves `limit` (64) pages.
        let largest = LargestSize()
        try await Self.commit(300, on: writer) { largest.record(Self.size(path + "-wal")) }
        let bound = (checkpointer.limit + 8) * (4096 + 24) + 32
        #expect(largest.value <= bound)
        #expect(largest.value > 0)

        try await writer.takeBackCheckpoints()
        try await checkpointer.close()
        try await writer.close()
        let reopened = try Connection(path: path)
        #expect(try reopened.queryOne(sql: "SELECT count(*) FROM blobs")?.value(at: 0, as: Int.self) == 1200)
        try reopened.close()
    }
}

/// The largest of the sizes recorded.
private final class LargestSize: @unchecked Sendable {
    private let lock = NSLock()
    private var largest = 0

    func record(_ size: Int) {
        lock.withLock { largest = max(largest, size) }
    }

    var value: Int { lock.withLock { largest } }
}
