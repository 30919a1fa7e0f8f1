import Synchronization

/// Collects the lines a component logs (a crawler, a gateway, a daemon) so that a test can wait for one
/// or check that none was written.
package final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    /// No lines yet.
    package init() {}

    /// The sink to put in a configuration.
    package var sink: @Sendable (String) -> Void { { line in self.lines.withLock { $0.append(line) } } }

    /// Adds a line.
    /// - Parameter line: the line.
    package func append(_ line: String) { lines.withLock { $0.append(line) } }

    /// Every line so far, in order.
    package var all: [String] { lines.withLock { $0 } }
}
