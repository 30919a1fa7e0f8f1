import Bridge
import FakeMastodon
import Foundation
import OrgSocial
import TootClient

/// Pushes 100 posts (threads of replies, long posts split in two, polls, boosts) to the fake Mastodon 4.5
/// server on 127.0.0.1 with its default budget (300 requests per 5 minutes per token), on the real clock, and
/// prints the wall time, the requests sent and how many were answered 429.
enum PushBenchmark {
    /// The feed: 100 posts from 2026-05-01T10:00, a minute apart.
    static func benchmarkFeed(feedURL: String) -> String {
        var text = "#+TITLE: Bench\n#+NICK: bench\n\n* Posts\n"
        let long = String(repeating: "A sentence that makes this post long enough to need two statuses. ", count: 9)
        for number in 1...100 {
            let id = String(format: "2026-05-01T%02d:%02d:00+0000", 10 + number / 60, number % 60)
            var properties = ""
            var body = "Post number \(number) of the benchmark."
            if number % 10 == 0 { body = long + "(\(number))" }
            if number % 7 == 0, number % 9 != 0 {
                properties += ":POLL_END: 2030-06-01T00:00:00+0000\n"
                body = "Poll \(number)?\n- [ ] Yes\n- [ ] No"
            }
            let previous = String(format: "2026-05-01T%02d:%02d:00+0000", 10 + (number - 1) / 60, (number - 1) % 60)
            if number % 9 == 0 {
                properties += ":INCLUDE: \(feedURL)#\(previous)\n"
                body = ""
            } else if number % 4 == 0 {
                properties += ":REPLY_TO: \(feedURL)#\(previous)\n"
            }
            text += "**\n:PROPERTIES:\n:ID: \(id)\n\(properties):END:\n\n\(body)\n"
        }
        return text
    }

    /// One run on a fresh server and state file: seconds, requests, 429 answers, statuses made.
    static func runOnce() async throws -> (seconds: Double, requests: Int, limited: Int, statuses: Int) {
        let fake = try FakeMastodon(.mastodon45)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bridge-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try TootClient(instanceURL: fake.url)
        let server = try await base.discover()
        let token = fake.issueToken(scopes: ["read", "write"], appName: BridgeIdentity.applicationName)
        let account = BridgeAccount(
            name: "bench@\(fake.host)", instanceURL: fake.url, server: server,
            addedAt: Date(timeIntervalSince1970: 1_777_593_600))
        let state = try await BridgeState(path: folder.appendingPathComponent("bridge.sqlite").path)
        try await state.addAccount(account)
        let feedURL = "https://bench.example/social.org"
        let feed = Feed(parsing: benchmarkFeed(feedURL: feedURL))
        let before = fake.journal.count
        let start = ContinuousClock.now
        let report = try await BridgePusher(state: state, client: base.authorized(token).configured(with: server)).push(
            account: account, feed: feed, feedURL: feedURL, options: PushOptions(maxNewPosts: 100))
        let elapsed = (ContinuousClock.now - start).components
        let journal = fake.journal.dropFirst(before)
        let statuses = fake.storage.statuses.count
        try await state.close()
        await fake.stop()
        for entry in report.entries where entry.action == .fail || entry.action == .skip {
            print("\(entry.action.rawValue) \(entry.postID): \(entry.reason ?? "")")
        }
        return (
            Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18, journal.count,
            journal.filter { $0.status == 429 }.count, statuses
        )
    }

    /// Runs it `runs` times and prints the best run.
    /// - Parameter runs: how many runs.
    /// - Throws: what setting up the servers or a run throws.
    static func run(runs: Int) async throws {
        var best: (seconds: Double, requests: Int, limited: Int, statuses: Int)?
        for _ in 0..<max(1, runs) {
            let result = try await runOnce()
            if best == nil || result.seconds < best?.seconds ?? .infinity { best = result }
        }
        if let best {
            print(
                String(
                    format:
                        "push of 100 posts: %.3f s (best of %d), %d requests, %d answered 429, %d statuses on the server",
                    best.seconds, max(1, runs), best.requests, best.limited, best.statuses))
        }
    }
}
