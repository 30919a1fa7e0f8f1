/// Polls `condition` until it holds or `timeout` passes, and says whether it held; use it as
/// `#expect(await eventually { … })` to wait for an event that has no signal of its own.
///
/// - Parameters:
///   - timeout: How long to wait at most (5 s by default).
///   - interval: The pause between two polls (10 ms by default).
///   - condition: What to wait for.
/// - Returns: Whether `condition` held before the timeout (it is checked one last time at the deadline).
/// - Throws: What `condition` throws.
package func eventually(
    timeout: Duration = .seconds(5), pollingEvery interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: interval)
    }
    return try await condition()
}
