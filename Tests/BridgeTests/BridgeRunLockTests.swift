import Bridge
import Foundation
import TestSupport
import Testing

@Suite struct BridgeRunLockTests {
    @Test func aSecondHolderIsRefusedWhileTheFirstHoldsTheLock() async throws {
        try await withTemporaryFolder { folder in
            let state = folder.path("bridge.sqlite")
            let first = try await BridgeRunLock.acquire(statePath: state)
            #expect(first.path == state + ".lock")
            do {
                _ = try await BridgeRunLock.acquire(statePath: state, waitingUpTo: .milliseconds(200))
                Issue.record("two holders had the lock")
            } catch let error as BridgeError {
                guard case .busy(let path, let holder, _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(path == state + ".lock")
                #expect(holder == "\(ProcessInfo.processInfo.processIdentifier)")
                #expect(error.localizedDescription.contains("is using this state file (lock \(state).lock)"))
            }
            first.release()
            #expect(!first.isHeld)
            let second = try await BridgeRunLock.acquire(statePath: state)
            #expect(second.isHeld)
        }
    }

    @Test func aWaitingHolderGetsTheLockWhenTheFirstReleasesIt() async throws {
        try await withTemporaryFolder { folder in
            let state = folder.path("bridge.sqlite")
            let first = try await BridgeRunLock.acquire(statePath: state)
            async let second = BridgeRunLock.acquire(
                statePath: state, waitingUpTo: .seconds(10), pollInterval: .milliseconds(20))
            try await Task.sleep(for: .milliseconds(150))
            first.release()
            let held = try await second
            #expect(held.isHeld)
        }
    }

    @Test func aLockHeldByAKilledProcessIsFree() async throws {
        try await withTemporaryFolder { folder in
            let state = folder.path("bridge.sqlite")
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            // --close: the command (a short sleep) does not inherit the lock, so killing flock alone frees it.
            holder.arguments = ["--close", state + ".lock", "sleep", "3"]
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/flock") else { return }
            try holder.run()
            // The other process holds the lock: refused.
            let refused = await eventually {
                do {
                    let lock = try await BridgeRunLock.acquire(statePath: state)
                    lock.release()
                    return false
                } catch { return error is BridgeError }
            }
            #expect(refused)
            kill(holder.processIdentifier, SIGKILL)
            // Free well before the 3 s sleep ends: the kernel dropped the killed holder's lock.
            let lock = try await BridgeRunLock.acquire(
                statePath: state, waitingUpTo: .seconds(1), pollInterval: .milliseconds(10))
            holder.waitUntilExit()
            #expect(lock.isHeld)
        }
    }
}
