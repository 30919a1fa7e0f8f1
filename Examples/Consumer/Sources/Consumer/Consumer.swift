import FeedHosting
import Foundation

/// `consumer`: uses every library product of orgsocial once, for real, as an app outside the package would.
///
/// Each step prints what it did; the first step that fails prints why on stderr and the program exits
/// with status 1. Everything runs on this machine: the servers listen on 127.0.0.1 and the files live in
/// a temporary folder that is removed at the end.
@main
struct Consumer {
    /// Runs the steps in order and exits non-zero on the first failure.
    static func main() async {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "orgsocial-consumer-\(ProcessInfo.processInfo.processIdentifier)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FeedSteps.countStatus()
            try await HTTPSteps.serveAndFetch()
            let node = try NodeSteps.startNode(root: folder.appendingPathComponent("node"))
            do {
                let feedText = try FeedSteps.parseAndEdit(following: node.feedURL("bob"))
                let written = try FeedSteps.writePost(into: feedText)
                try FeedSteps.renderPage(of: written)
                try node.publish(written, as: "ana")
                try node.publish(NodeSteps.bobFeed, as: "bob")
                try await NodeSteps.fetchTimeline(from: node)
                try await RelaySteps.index(node, database: folder.appendingPathComponent("relay.sqlite"))
            } catch {
                await node.node.stop(gracePeriod: .zero)
                throw error
            }
            await node.node.stop(gracePeriod: .zero)
            try await BridgeSteps.openState(at: folder.appendingPathComponent("bridge/state.sqlite"))
            print("consumer: every product used, all steps passed")
        } catch {
            FileHandle.standardError.write(Data("consumer: FAILED: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// A step that did not get what it expected.
struct ConsumerFailure: Error, CustomStringConvertible {
    /// What was expected and what came instead.
    let description: String

    /// Makes a failure.
    /// - Parameter description: what was expected and what came instead.
    init(_ description: String) {
        self.description = description
    }
}

/// Fails with `message` unless `condition` holds.
/// - Parameters:
///   - condition: what the step expects.
///   - message: what went wrong, when it does not hold.
/// - Throws: ``ConsumerFailure``.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws(ConsumerFailure) {
    if !condition { throw ConsumerFailure(message()) }
}
