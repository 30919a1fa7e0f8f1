import Foundation
import TestSupport
import Testing

/// The rule for tests of the real feeds (docs/STYLE.md): a checkout without `../shared/corpus/feeds` skips
/// them, never fails them. A test that unwraps the corpus folder with `#require` must carry an
/// `.enabled(if:)` trait, or it fails wherever the folder is absent.
struct CorpusSkipTests {
    /// A test whose body unwraps the corpus folder without an `.enabled(if:)` trait on its `@Test`.
    struct Offender: CustomStringConvertible, Equatable {
        /// The file, relative to `Tests/`.
        var file: String
        /// The test function's name.
        var test: String

        var description: String { "\(file): \(test)" }
    }

    /// The tests of the `.swift` files under `folder` that unwrap `SharedCorpus.feeds` (or a static
    /// property holding it) with `#require` although nothing skips them when it is `nil`.
    static func unskippedCorpusTests(under folder: URL) throws -> [Offender] {
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        var offenders: [Offender] = []
        for file in files.sorted() where file.hasSuffix(".swift") && !file.hasSuffix("/CorpusSkipTests.swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            // `static let corpus: URL? = SharedCorpus.feeds` makes `corpus` and `Self.corpus` name the folder.
            let aliases = text.matches(of: /static let (\w+)(?::\s*URL\?)?\s*=\s*SharedCorpus\.feeds\b/).map {
                String($0.output.1)
            }
            let folderNames = ["SharedCorpus.feeds"] + aliases.flatMap { [$0, "Self." + $0] }
            for segment in text.components(separatedBy: "@Test").dropFirst() {
                guard let function = segment.range(of: "func ") else { continue }
                let attribute = segment[..<function.lowerBound]
                let body = segment[function.upperBound...]
                let unwrapsCorpus = folderNames.contains { body.contains("#require(\($0))") }
                guard unwrapsCorpus, !attribute.contains(".enabled(if:") else { continue }
                let name = body.prefix { $0 != "(" && $0 != "<" }
                offenders.append(Offender(file: file, test: String(name)))
            }
        }
        return offenders
    }

    @Test func everyTestThatUnwrapsTheCorpusIsSkippedWhenItIsAbsent() throws {
        let tests = SharedCorpus.packageRoot.appendingPathComponent("Tests")

        #expect(try Self.unskippedCorpusTests(under: tests) == [])
    }

    @Test func aTestThatUnwrapsTheCorpusWithoutATraitIsFound() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try """
        struct A {
            static let corpus: URL? = SharedCorpus.feeds
            @Test func skipped() throws {}
            @Test(.enabled(if: corpus != nil, "absent")) func gated() throws { _ = try #require(Self.corpus) }
            @Test func failsWithoutTheFolder() throws { _ = try #require(Self.corpus) }
            @Test(arguments: [1]) func alsoFails(_ n: Int) throws { _ = try #require(SharedCorpus.feeds) }
        }
        """.write(toFile: folder.path("ATests.swift"), atomically: true, encoding: .utf8)

        #expect(
            try Self.unskippedCorpusTests(under: folder.url) == [
                Offender(file: "ATests.swift", test: "failsWithoutTheFolder"),
                Offender(file: "ATests.swift", test: "alsoFails"),
            ])
    }
}
