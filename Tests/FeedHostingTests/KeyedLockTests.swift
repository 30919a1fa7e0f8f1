import Synchronization
import Testing

@testable import FeedHosting

/// Per-key mutual exclusion for async code.
struct KeyedLockTests {
    /// Counts the bodies running per key and remembers the most at once.
    final class Occupancy: Sendable {
        private let state = Mutex<(inside: [String: Int], peak: [String: Int])>(([:], [:]))

        func enter(_ key: String) {
            state.withLock { state in
                state.inside[key, default: 0] += 1
                state.peak[key] = max(state.peak[key] ?? 0, state.inside[key] ?? 0)
            }
        }

        func leave(_ key: String) {
            state.withLock { $0.inside[key, default: 0] -= 1 }
        }

        var peak: [String: Int] { state.withLock { $0.peak } }
    }

    @Test func runsBodiesForOneKeyOneAtATimeAndOtherKeysInParallel() async {
        let lock = KeyedLock<String>()
        let occupancy = Occupancy()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let key = index.isMultiple(of: 2) ? "a" : "b"
                group.addTask {
                    await lock.withLock(key) {
                        occupancy.enter(key)
                        for _ in 0..<5 { await Task.yield() }
                        occupancy.leave(key)
                    }
                }
            }
        }
        #expect(occupancy.peak == ["a": 1, "b": 1])
    }

    @Test func releasesTheLockWhenTheBodyThrows() async throws {
        struct Failure: Error {}
        let lock = KeyedLock<Int>()
        await #expect(throws: Failure.self) { try await lock.withLock(1) { throw Failure() } }
        #expect(await lock.withLock(1) { 42 } == 42)
    }
}
