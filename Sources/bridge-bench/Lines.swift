import Synchronization

/// Lines collected from the node's threads.
final class Lines: Sendable {
    private let storage = Mutex<[String]>([])

    /// Adds a line.
    func append(_ line: String) { storage.withLock { $0.append(line) } }

    /// Every line so far.
    var all: [String] { storage.withLock { $0 } }
}
