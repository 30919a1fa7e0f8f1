package import Foundation

/// The real feeds in `<package root>/../shared/corpus/feeds`, which live outside the repository and are
/// read from there, never copied (docs/STYLE.md, house rule 21).
package enum SharedCorpus {
    /// The package root (this file is `Tests/TestSupport/SharedCorpus.swift`).
    package static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The path of `<package root>/../shared/corpus/feeds`, whether or not it exists; `$ORGSOCIAL_TEST_CORPUS`
    /// names another folder (`ORGSOCIAL_TEST_CORPUS=/nonexistent swift test` runs the suite as a checkout
    /// without the corpus does, every corpus test skipped).
    package static let feedsPath =
        ProcessInfo.processInfo.environment["ORGSOCIAL_TEST_CORPUS"].flatMap { $0.isEmpty ? nil : $0 }
        ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/feeds").path

    /// The corpus folder, or `nil` when it is absent (tests that need it are then skipped).
    package static let feeds: URL? =
        FileManager.default.fileExists(atPath: feedsPath) ? URL(fileURLWithPath: feedsPath) : nil

    /// The `.org` files of the corpus, sorted by name (empty when the folder is absent).
    package static let feedFiles: [URL] = {
        guard let feeds else { return [] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: feeds.path)) ?? []
        return names.filter { $0.hasSuffix(".org") }.sorted().map { feeds.appendingPathComponent($0) }
    }()
}
