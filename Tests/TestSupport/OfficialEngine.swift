package import Foundation

/// Where the official Org Social engine (`orgsocial-engine`, from the org-social-tui wheel) is, for the
/// tests that drive it: `ORGSOCIAL_OFFICIAL_ENGINE` when set, else the highest version that
/// `scripts/official-engine` cached in `<package root>/.build/official-engine/<version>/`.
package enum OfficialEngine {
    /// The environment variable that names the binary.
    package static let environmentVariable = "ORGSOCIAL_OFFICIAL_ENGINE"

    /// The folder `scripts/official-engine` caches versions in by default.
    package static let cacheFolder = SharedCorpus.packageRoot.appendingPathComponent(".build/official-engine")

    /// The engine's path, or `nil` when there is none: a path in `ORGSOCIAL_OFFICIAL_ENGINE` that is not an
    /// executable file counts as none.
    package static let path: String? = {
        if let named = ProcessInfo.processInfo.environment[environmentVariable], !named.isEmpty {
            return FileManager.default.isExecutableFile(atPath: named) ? named : nil
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: cacheFolder.path)) ?? []
        return versions.sorted { $0.compare($1, options: .numeric) == .orderedDescending }
            .map { cacheFolder.appendingPathComponent($0).appendingPathComponent("orgsocial-engine").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// What to do when the engine is missing.
    package static let missingReason =
        "the official engine is missing: run scripts/official-engine (scripts/setup does under CI) or set "
        + "\(environmentVariable) to an orgsocial-engine binary"

    /// Whether the tests that drive the engine run: always under CI (`CI` set), where a missing engine then
    /// fails them (``requirePath()``); elsewhere only when it is there, and when it is not, one line saying
    /// so is printed.
    ///
    /// - Parameter suite: The suite's name, for the line.
    /// - Returns: Whether to run them.
    package static func testsRun(suite: String) -> Bool {
        if path != nil || ProcessInfo.processInfo.environment["CI"] != nil { return true }
        print("\(suite): SKIPPED: \(missingReason); CI runs it.")
        return false
    }

    /// The engine is missing.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String { OfficialEngine.missingReason }
    }

    /// The engine's path.
    ///
    /// - Throws: ``Missing`` when there is none.
    package static func requirePath() throws -> String {
        guard let path else { throw Missing() }
        return path
    }
}
