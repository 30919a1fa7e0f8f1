package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL cluster of a test's own (`scripts/postgres-test-cluster` in a temporary folder), which the
/// test may stop and start again, for behaviour while the database is away. Unlike the shared cluster of
/// ``PostgresTestDatabase``, stopping it disturbs no other test.
package final class PostgresTestCluster: Sendable {
    /// Whether PostgreSQL's programs are installed (`/usr/lib/postgresql/*/bin/initdb`).
    package static let isInstalled: Bool = {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return versions.contains { FileManager.default.isExecutableFile(atPath: "\(root)/\($0)/bin/initdb") }
    }()

    /// The database's URL, `postgres://postgres@127.0.0.1:PORT/orgsocial_test`.
    package let url: String
    private let folder: String

    /// Starts a cluster in a new temporary folder (a few seconds: `initdb`, then `pg_ctl start`).
    ///
    /// - Throws: ``RawConnection/Failure`` with the script's output when it fails.
    package init() throws {
        folder =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "orgsocial-pg-\(UUID().uuidString)"
            ).path
        url = try Self.run("start", folder).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the server, keeping its data (connections to it fail until ``resume()``).
    ///
    /// - Throws: ``RawConnection/Failure`` when `pg_ctl stop` fails.
    package func pause() throws { _ = try Self.run("pause", folder) }

    /// Starts the server again on the same port.
    ///
    /// - Throws: ``RawConnection/Failure`` when `pg_ctl start` fails.
    package func resume() throws { _ = try Self.run("resume", folder) }

    /// Stops the server and deletes its folder.
    package func remove() { _ = try? Self.run("stop", folder) }

    private static func run(_ command: String, _ folder: String) throws -> String {
        let script = SharedCorpus.packageRoot.appendingPathComponent("scripts/postgres-test-cluster")
        // Through system(3), with the output in files: Foundation's Process does not notice this script's
        // exit here (it leaves a server running that inherited the script's descriptors), and pipes would
        // never reach their end for the same reason.
        let outputPath = folder + ".out"
        let errorPath = folder + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        let line = [script.path, command, folder].map { "'\($0)'" }.joined(separator: " ")
        let status = system("\(line) </dev/null >'\(outputPath)' 2>'\(errorPath)'")
        let printed = FileManager.default.contents(atPath: outputPath) ?? Data()
        let complaint = FileManager.default.contents(atPath: errorPath) ?? Data()
        guard status == 0 else {
            throw RawConnection.Failure(
                description: "postgres-test-cluster \(command) failed (status \(status)): "
                    + String(decoding: complaint, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
