import Synchronization

/// A one-shot signal that tasks can wait on: ``wait()`` returns once ``open()`` has been called, at
/// once if it already was.
package final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed gate.
    package init() {}

    /// Opens the gate and lets every waiter through.
    package func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether ``open()`` was called.
    package var isOpen: Bool { state.withLock(\.isOpen) }

    /// Waits until the gate is open.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let openAlready = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if openAlready { continuation.resume() }
        }
    }
}

/// A thread-safe counter with a high-water mark (for "how many ran at once").
package final class Counter: Sendable {
    private let state = Mutex<(value: Int, peak: Int)>((0, 0))

    /// A counter at 0.
    package init() {}

    /// Adds one and returns the new value.
    @discardableResult
    package func increment() -> Int {
        state.withLock { state in
            state.value += 1
            state.peak = max(state.peak, state.value)
            return state.value
        }
    }

    /// Takes one away.
    package func decrement() {
        state.withLock { $0.value -= 1 }
    }

    /// The current value.
    package var value: Int { state.withLock(\.value) }

    /// The highest value reached.
    package var peak: Int { state.withLock(\.peak) }
}
