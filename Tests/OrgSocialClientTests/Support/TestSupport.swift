import Foundation
import OrgSocial
import OrgSocialClient

@testable import OrgSocialCLI

/// A small valid feed with one post.
let sampleFeed = """
    #+TITLE: Ana's journal
    #+NICK: ana

    * Posts
    ** 2026-01-01T10:00:00+0000
    :PROPERTIES:
    :CLIENT: orgsocial
    :END:

    First post.

    """

/// A publisher over CurlTransport that retries quickly.
func makePublisher(retryDelay: Duration = .milliseconds(1)) -> FeedPublisher {
    FeedPublisher(transport: CurlTransport(timeout: .seconds(10)), retryDelay: retryDelay)
}

/// A fixed instant for post IDs: 2026-01-02T03:04:05Z.
let fixedDate = Date(timeIntervalSince1970: 1_767_323_045)

/// UTC.
let utc = TimeZone(identifier: "UTC") ?? .current

/// What one in-process run of the tool produced.
struct CLIResult {
    var status: Int32
    var output: String
    var error: String
}

/// Runs `orgsocial <arguments>` in process with `environment` (plus a fixed clock in UTC, and a default
/// relay on a closed loopback port so that no test reaches the internet).
func runCLI(_ arguments: [String], environment: [String: String] = [:]) async -> CLIResult {
    var output: [UInt8] = []
    var error: [UInt8] = []
    let context = CommandContext(
        environment: [
            "ORGSOCIAL_NOW": "2026-01-02T03:04:05+0000", "TZ": "UTC",
            // Never the real default relay: a closed port on loopback unless a test serves one.
            "ORGSOCIAL_DEFAULT_RELAY": "http://127.0.0.1:1",
        ].merging(environment) { $1 },
        writeStandardOutput: { output += $0 },
        writeStandardError: { error += $0 },
        makeTransport: { CurlTransport(timeout: .seconds(10)) })
    let status = await CLI.run(arguments, context: context)
    return CLIResult(
        status: status, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
}

/// The permission bits of a file.
func permissions(of path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// An edit that appends a post by "another writer" at `date` (used with `FakeFeedState.interleave`).
func otherWriterAppends(_ text: String, at date: Date) -> @Sendable (inout Feed) -> Void {
    { feed in
        if let draft = try? PostDraft.post(text) { feed.append(draft, at: date, timeZone: utc) }
    }
}
