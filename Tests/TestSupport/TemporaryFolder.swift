package import Foundation

/// A fresh folder under the system's temporary directory for one test: files are written and read by
/// name relative to it, and ``remove()`` deletes it (call it in a `defer`, or use
/// ``withTemporaryFolder(_:)``).
package struct TemporaryFolder: Sendable {
    /// The folder.
    package let url: URL

    /// Creates `orgsocial-test-<UUID>` in the temporary directory.
    ///
    /// - Throws: What `FileManager.createDirectory` throws when the folder cannot be made.
    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("orgsocial-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The folder's path.
    package var path: String { url.path }

    /// The path of an entry of the folder (`name` may contain `/`).
    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes bytes to a file of the folder, creating the folders on its way, and returns its path.
    ///
    /// - Throws: What `FileManager` or `Data.write(to:)` throws.
    @discardableResult
    package func write(_ bytes: [UInt8], to name: String) throws -> String {
        let full = path(name)
        try FileManager.default.createDirectory(
            atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Writes text (as UTF-8) to a file of the folder, creating the folders on its way, and returns its path.
    ///
    /// - Throws: What `FileManager` or `Data.write(to:)` throws.
    @discardableResult
    package func write(_ text: String, to name: String) throws -> String { try write(Array(text.utf8), to: name) }

    /// The bytes of a file of the folder.
    ///
    /// - Throws: What `Data(contentsOf:)` throws when the file cannot be read.
    package func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// The text of a file of the folder (UTF-8, invalid bytes as U+FFFD).
    ///
    /// - Throws: What `Data(contentsOf:)` throws when the file cannot be read.
    package func text(_ name: String) throws -> String { String(decoding: try bytes(name), as: UTF8.self) }

    /// The names of the entries of the folder, sorted.
    ///
    /// - Throws: What `FileManager.contentsOfDirectory` throws.
    package func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    /// An environment whose `HOME` is this folder (the CLI keeps its config in `.config` and its state in
    /// `.local/state` under it).
    package var homeEnvironment: [String: String] { ["HOME": url.path] }

    /// Deletes the folder and everything in it.
    package func remove() { try? FileManager.default.removeItem(at: url) }
}

/// Runs `body` with a fresh ``TemporaryFolder`` and always removes the folder afterwards.
///
/// - Parameter body: The test's work.
/// - Returns: What `body` returns.
/// - Throws: What creating the folder or `body` throws.
package func withTemporaryFolder<Result>(_ body: (TemporaryFolder) async throws -> Result) async throws -> Result {
    let folder = try TemporaryFolder()
    defer { folder.remove() }
    return try await body(folder)
}
