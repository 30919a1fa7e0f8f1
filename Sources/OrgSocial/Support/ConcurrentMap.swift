import Dispatch
import Synchronization

/// The results of `transform` on each of `inputs`, in order, computed on as many threads as there are
/// inputs (up to the cores Dispatch uses), returning when all are done: for cutting one large job, such
/// as reading a big feed's posts, into runs that the machine's cores share.
/// - Parameters:
///   - inputs: the pieces of work.
///   - transform: does one piece; called concurrently, once per input.
/// - Returns: `transform`'s results, in the order of `inputs`.
package func concurrentMap<Input: Sendable, Output: Sendable>(
    _ inputs: [Input], _ transform: @Sendable (Input) -> Output
) -> [Output] {
    guard inputs.count > 1 else { return inputs.map(transform) }
    let results = Mutex<[Output?]>(Array(repeating: nil, count: inputs.count))
    DispatchQueue.concurrentPerform(iterations: inputs.count) { index in
        let output = transform(inputs[index])
        results.withLock { $0[index] = output }
    }
    // Every slot is filled once `concurrentPerform` returns.
    return results.withLock { $0.compactMap { $0 } }
}
