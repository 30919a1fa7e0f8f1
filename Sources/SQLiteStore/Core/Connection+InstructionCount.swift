internal import CSQLite

/// The tally the progress handler of ``Connection/countingInstructions(granularity:_:)`` keeps.
private final class InstructionTally {
    var calls = 0
}

extension Connection {
    /// Runs `body` and counts the virtual-machine instructions its statements ran, to within `granularity`:
    /// a measure of how much a query reads that does not depend on the machine's speed (tests of query
    /// plans: a page read through an index runs far fewer than a sort of every match).
    ///
    /// It uses the connection's progress handler, so it must not be nested in ``withBudget(_:_:)``.
    /// - Parameters:
    ///   - granularity: the instructions between two counts.
    ///   - body: the statements to run.
    /// - Returns: what `body` returns, and the instructions run (a multiple of `granularity`).
    /// - Throws: what `body` throws, and ``StoreError`` when the connection is closed.
    package func countingInstructions<T>(granularity: Int32 = 100, _ body: (Connection) throws -> T) throws -> (
        result: T, instructions: Int
    ) {
        let pointer = try live(sql: nil)
        let tally = InstructionTally()
        let context = Unmanaged.passUnretained(tally).toOpaque()
        sqlite3_progress_handler(
            pointer, max(1, granularity),
            { context in
                guard let context else { return 0 }
                Unmanaged<InstructionTally>.fromOpaque(context).takeUnretainedValue().calls += 1
                return 0
            }, context)
        defer {
            sqlite3_progress_handler(pointer, 0, nil, nil)
            withExtendedLifetime(tally) {}
        }
        let result = try body(self)
        return (result, tally.calls * Int(max(1, granularity)))
    }
}
