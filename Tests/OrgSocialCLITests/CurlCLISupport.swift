import Foundation
import HTTPClient
import OrgSocialClient

@testable import OrgSocialCLI

/// Runs `orgsocial <arguments>` in process over a real `CurlTransport`, for the commands that talk to a
/// (fake) server: `environment` is added to a fixed clock in UTC and to a default relay on a closed
/// loopback port, so that no test reaches the internet.
///
/// - Parameters:
///   - arguments: The tokens after `orgsocial`.
///   - environment: What to add to (or override in) the fixed environment.
///   - isTerminal: Whether the command is told that standard output is a terminal.
/// - Returns: The exit code and what was written to stdout and stderr.
func runCLIOverCurl(
    _ arguments: [String], environment: [String: String] = [:], isTerminal: Bool = false
) async -> CLIResult {
    var output: [UInt8] = []
    var error: [UInt8] = []
    var context = CommandContext(
        environment: [
            "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC",
            // Never the real default relay: a closed port on loopback unless a test serves one.
            "ORGSOCIAL_DEFAULT_RELAY": "http://127.0.0.1:1", "ORGSOCIAL_DEFAULT_MIRROR": "none",
        ].merging(environment) { $1 },
        writeStandardOutput: { output += $0 },
        writeStandardError: { error += $0 },
        makeTransport: { CurlTransport(timeout: .seconds(10)) })
    context.isStandardOutputTerminal = isTerminal
    let status = await CLI.run(arguments, context: context)
    return CLIResult(status: status, outputBytes: output, errorBytes: error)
}

/// The permission bits of a file.
///
/// - Parameter path: The file.
/// - Returns: Its POSIX permission bits, or -1 when they cannot be read.
/// - Throws: What `FileManager.attributesOfItem` throws.
func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}
