import Foundation
import TestSupport
import Testing

/// End-to-end runs of the built `orgsocial` binary: the one next to the test bundle (what
/// `swift build --build-tests` produces), skipped only when the build made none.
struct BinaryTests {
    static let binary = ServeCommandTests.binary
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    /// Runs the binary and returns its exit code, stdout and stderr.
    private func run(_ arguments: [String], input: [UInt8] = [], environment: [String: String] = [:]) throws -> (
        status: Int32, output: [UInt8], error: String
    ) {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["ORGSOCIAL_DEFAULT_MIRROR": "none"]) { $1 }
            .merging(environment) { $1 }
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, Array(output), String(decoding: error, as: UTF8.self))
    }

    @Test(.enabled(if: isBuilt)) func versionAndUsageErrorExitCodes() throws {
        let version = try run(["--version"])
        #expect(version.status == 0)
        #expect(version.output == Array("orgsocial 0.1.0\n".utf8))
        let typo = try run(["chek"])
        #expect(typo.status == 2)
        #expect(typo.output.isEmpty)
        #expect(typo.error.hasPrefix("Error: Unknown command 'chek'. Did you mean 'check'?\n"))
    }

    @Test(.enabled(if: isBuilt)) func initPostAndShowThroughPipes() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("social.org")
        let environment = ["ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC", "ORGSOCIAL_FEED_URL": testFeedURL]
        #expect(try run(["init", "--file", file, "--title", "T", "--nick", "t"], environment: environment).status == 0)
        let post = try run(
            ["post", "--file", file, "--text", "-"], input: Array("from a pipe\n".utf8), environment: environment)
        #expect(post.status == 0)
        #expect(post.output == Array("\(testFeedURL)#2026-01-02T03:04:05+0000\n".utf8))
        let bytes = try folder.bytes("social.org")
        let shown = try run(["show", "--org", "-"], input: bytes)
        #expect(shown.status == 0)
        #expect(shown.output == bytes)
        let check = try run(["check", file])
        #expect(check.status == 0)
        #expect(check.error == "1 file checked: 0 errors, 0 warnings\n")
    }
}
