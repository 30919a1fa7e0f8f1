import Foundation
import TestSupport
import Testing

/// `orgsocial timeline` pages: `--limit` posts at a time, `--before` and `--page` for the next ones, a
/// hint when there are more, and a pager on a terminal.
struct TimelinePagingTests {
    /// The posts of the test network's timeline, newest first (see `TimelineCommandTests.withNetwork`).
    static let order = ["Hola", "A reply from ana.", "Tea or coffee?", "Root post.", "An old post."]

    /// Which of ``order`` an output shows.
    private func shown(_ output: String) -> [String] { Self.order.filter { output.contains($0) } }

    @Test func beforeAndPageWalkThroughTheTimelineWithAHintForTheNextPage() async throws {
        try await TimelineCommandTests().withNetwork { farm, me, environment in
            let first = await runCLIOverCurl(["timeline", "--feed-url", me, "--limit", "2"], environment: environment)
            #expect(first.status == 0)
            #expect(shown(first.output) == ["Hola", "A reply from ana."])
            let next = "\(farm.url("/ana.org"))#2026-01-01T02:00:00+0000"
            #expect(first.error.contains("More posts: run the same command with --before \(next).\n"))

            let second = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--limit", "2", "--before", next], environment: environment)
            #expect(shown(second.output) == ["Tea or coffee?", "Root post."])
            #expect(second.error.contains("More posts"))

            let page = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--limit", "2", "--page", "2"], environment: environment)
            #expect(shown(page.output) == ["Tea or coffee?", "Root post."])
            #expect(page.error.contains("More posts: run the same command with --page 3.\n"))
            let last = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--limit", "2", "--page", "3"], environment: environment)
            #expect(shown(last.output) == ["An old post."])
            #expect(!last.error.contains("More posts"))

            let byID = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--before", "2026-01-01T00:30:00+0000"], environment: environment)
            #expect(shown(byID.output) == ["Root post.", "An old post."])
        }
    }

    @Test func badPagingValuesAreUsageErrors() async {
        for arguments in [
            ["--page", "0"], ["--before", "yesterday"], ["--page", "2", "--before", "2026-01-01T00:00:00Z"],
        ] {
            let result = await runCLIOverCurl(["timeline", "--feed-url", "http://127.0.0.1:1/x.org"] + arguments)
            #expect(result.status == 2, "\(arguments)")
        }
    }

    @Test func aTerminalGetsThePagerUnlessNoPager() async throws {
        try await TimelineCommandTests().withNetwork { _, me, environment in
            let folder = try TemporaryFolder()
            defer { folder.remove() }
            let paged = folder.path("paged.txt")
            var environment = environment
            environment["PAGER"] = "cat > '\(paged)'"
            let terminal = await runCLIOverCurl(
                ["timeline", "--feed-url", me], environment: environment, isTerminal: true)
            #expect(terminal.status == 0)
            #expect(terminal.output.isEmpty)
            let text = try String(contentsOfFile: paged, encoding: .utf8)
            #expect(shown(text) == Self.order)
            try FileManager.default.removeItem(atPath: paged)

            let unpaged = await runCLIOverCurl(
                ["timeline", "--feed-url", me, "--no-pager"], environment: environment, isTerminal: true)
            #expect(shown(unpaged.output) == Self.order)
            let piped = await runCLIOverCurl(["timeline", "--feed-url", me], environment: environment)
            #expect(shown(piped.output) == Self.order)
            #expect(!FileManager.default.fileExists(atPath: paged))
        }
    }

    @Test func theJSONOutputCarriesTheNextPageOptions() async throws {
        try await TimelineCommandTests().withNetwork { farm, me, environment in
            func next(_ arguments: [String]) async throws -> [String]? {
                let result = await runCLIOverCurl(
                    ["timeline", "--feed-url", me, "--json"] + arguments, environment: environment)
                #expect(result.status == 0)
                let object = try #require(
                    try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
                return object["next"] as? [String]
            }

            let first = try await next(["--limit", "2"])
            let second = try await next(["--limit", "2", "--page", "2"])
            let last = try await next(["--limit", "2", "--page", "3"])
            let whole = try await next([])
            #expect(first == ["--before", "\(farm.url("/ana.org"))#2026-01-01T02:00:00+0000"])
            #expect(second == ["--page", "3"])
            #expect(last == nil)
            #expect(whole == nil)
        }
    }

    @Test func notificationsSearchAndThreadUseThePagerOnATerminal() async throws {
        try await TimelineCommandTests().withNetwork { _, me, environment in
            try await FakeRelay.with { (relay: FakeRelay) async throws in
                let post = "\(me)#2026-01-01T00:00:00+0000"
                await relay.state.success(
                    "/search/", data: "[\"\(post)\"]",
                    meta: "{\"query\":\"root\",\"total\":1,\"page\":1,\"perPage\":10,\"hasNext\":false,"
                        + "\"hasPrevious\":false}")
                let folder = try TemporaryFolder()
                defer { folder.remove() }
                let paged = folder.path("paged.txt")
                var environment = environment
                environment["PAGER"] = "cat > '\(paged)'"
                let commands: [(arguments: [String], shows: String)] = [
                    (["notifications", "--feed-url", me], "[reply] ana replied to"),
                    (["search", "root", "--relay", relay.baseURL], "Root post."),
                    (["thread", post, "--feed-url", me], "A reply from ana."),
                ]
                for (arguments, shows) in commands {
                    let terminal = await runCLIOverCurl(arguments, environment: environment, isTerminal: true)
                    #expect(terminal.status == 0, "\(arguments): \(terminal.error)")
                    #expect(terminal.output.isEmpty, "\(arguments)")
                    let text = try String(contentsOfFile: paged, encoding: .utf8)
                    #expect(text.contains(shows), "\(arguments)")
                    try FileManager.default.removeItem(atPath: paged)

                    let unpaged = await runCLIOverCurl(
                        arguments + ["--no-pager"], environment: environment, isTerminal: true)
                    #expect(unpaged.output.contains(shows), "\(arguments)")
                    #expect(!FileManager.default.fileExists(atPath: paged), "\(arguments)")
                }
            }
        }
    }

    @Test func aPagerThatCannotRunOrFailsFallsBackToPlainOutputWithAWarning() async throws {
        try await TimelineCommandTests().withNetwork { _, me, environment in
            // Not found before it runs, and (behind shell syntax) found missing by the shell's status 127; then
            // pagers that run and fail: `false` reads nothing and exits 1, the other reads it all and exits 3.
            let pagers = [
                "/nonexistent/pager", "/nonexistent/pager -R", "true && /nonexistent/pager", "false",
                "cat >/dev/null; exit 3",
            ]
            for pager in pagers {
                var environment = environment
                environment["PAGER"] = pager
                let result = await runCLIOverCurl(
                    ["timeline", "--feed-url", me], environment: environment, isTerminal: true)
                #expect(result.status == 0, "\(pager)")
                #expect(shown(result.output) == Self.order, "\(pager)")
                #expect(result.error.contains("warning: the pager '\(pager)' could not be used"), "\(pager)")
            }
        }
    }
}
