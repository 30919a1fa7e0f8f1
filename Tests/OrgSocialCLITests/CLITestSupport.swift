import Foundation
import HTTPClient
import OrgSocial
import Synchronization
import TestSupport
import Testing

@testable import OrgSocialCLI

/// What one in-process run of the tool produced.
struct CLIResult {
    /// The exit code.
    var status: Int32
    /// Standard output, raw.
    var outputBytes: [UInt8]
    /// Standard error, raw.
    var errorBytes: [UInt8]

    /// Standard output as text.
    var output: String { String(decoding: outputBytes, as: UTF8.self) }
    /// Standard error as text.
    var error: String { String(decoding: errorBytes, as: UTF8.self) }
}

/// "Now" in every test: 2026-01-02T03:04:05+0000, written in UTC.
let testEnvironment = ["ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC"]

/// The environment of a bridge test whose configuration (`config/config.json`), state file
/// (`data/bridge.sqlite`) and home are all in `folder`.
/// - Parameter folder: the test's folder.
/// - Returns: ``testEnvironment`` with those paths.
func bridgeTestEnvironment(in folder: TemporaryFolder) -> [String: String] {
    testEnvironment.merging([
        "HOME": folder.path, "ORGSOCIAL_CONFIG": folder.path("config/config.json"),
        "ORGSOCIAL_BRIDGE_STATE": folder.path("data/bridge.sqlite"),
    ]) { $1 }
}

/// The feed URL tests publish at.
let testFeedURL = "https://ana.example.org/social.org"

/// Runs `orgsocial <arguments>` in process, capturing its output.
/// - Parameters:
///   - arguments: the tokens after `orgsocial`.
///   - input: what standard input holds.
///   - environment: the environment (fixed clock and UTC by default).
/// - Returns: the exit code and what was written to stdout and stderr.
func runCLI(
    _ arguments: [String], input: [UInt8] = [], environment: [String: String] = testEnvironment
) async -> CLIResult {
    var output: [UInt8] = []
    var error: [UInt8] = []
    let context = CommandContext(
        environment: ["ORGSOCIAL_DEFAULT_MIRROR": "none"].merging(environment) { $1 },
        readStandardInput: { input },
        writeStandardOutput: { output += $0 },
        writeStandardError: { error += $0 },
        clock: { Date(timeIntervalSince1970: 0) })
    let status = await CLI.run(arguments, context: context)
    return CLIResult(status: status, outputBytes: output, errorBytes: error)
}

/// A folder holding `social.org` made by `orgsocial init` (title "Ana's journal", nick `ana`).
func makeFeedFolder() async throws -> (folder: TemporaryFolder, file: String) {
    let folder = try TemporaryFolder()
    let file = folder.path("social.org")
    let result = await runCLI(["init", "--file", file, "--title", "Ana's journal", "--nick", "ana"])
    guard result.status == 0 else { throw TestSetupError(message: result.error) }
    return (folder, file)
}

/// A setup step failed.
struct TestSetupError: Error {
    /// What went wrong.
    var message: String
}

/// The root of the package.
let packageRoot = SharedCorpus.packageRoot

/// What a running command has written so far (it is read while the command still runs).
final class LiveOutput: Sendable {
    private let bytes = Mutex<(output: [UInt8], error: [UInt8])>(([], []))
    private let exitStatus = Mutex<Int32?>(nil)
    /// The command's exit status, once it has ended.
    var status: Int32? {
        get { exitStatus.withLock { $0 } }
        set { exitStatus.withLock { $0 = newValue } }
    }
    var output: String { String(decoding: bytes.withLock(\.output), as: UTF8.self) }
    var error: String { String(decoding: bytes.withLock(\.error), as: UTF8.self) }
    func addOutput(_ piece: [UInt8]) { bytes.withLock { $0.output += piece } }
    func addError(_ piece: [UInt8]) { bytes.withLock { $0.error += piece } }
}

/// Runs the command in process over curl, with a fixed now and UTC, until `done` holds for its output (at
/// most 10 s), then cancels it as Ctrl-C would, and gives what it wrote and its exit status.
func runCLIUntil(
    _ arguments: [String], environment: [String: String] = [:], until done: @escaping @Sendable (LiveOutput) -> Bool
) async -> LiveOutput {
    let live = LiveOutput()
    let context = CommandContext(
        environment: [
            "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC", "PATH": "/usr/bin:/bin",
            "ORGSOCIAL_DEFAULT_MIRROR": "none",
        ]
        .merging(environment) { $1 },
        writeStandardOutput: { live.addOutput($0) },
        writeStandardError: { live.addError($0) },
        makeTransport: { CurlTransport(timeout: .seconds(10)) })
    let command = Task { await CLI.run(arguments, context: context) }
    _ = await eventually(timeout: .seconds(10)) { done(live) }
    command.cancel()
    live.status = await command.value
    return live
}

/// Sends SIGINT to a running `orgsocial` process and expects it to end with 130 within 100 ms.
/// - Parameters:
///   - process: the running process.
///   - sourceLocation: where a failed expectation is reported.
/// - Throws: What waiting for it throws.
func expectExitWith130SoonAfterSIGINT(_ process: Process, sourceLocation: SourceLocation = #_sourceLocation)
    async throws
{
    let sent = ContinuousClock.now
    kill(process.processIdentifier, SIGINT)
    let status = try await offPool {
        process.waitUntilExit()
        return process.terminationStatus
    }
    let elapsed = ContinuousClock.now - sent
    #expect(status == 130, sourceLocation: sourceLocation)
    #expect(elapsed < .milliseconds(100), "exited \(elapsed) after SIGINT", sourceLocation: sourceLocation)
}
