import Foundation
import PostgresStore
import RelayCore
import RelayTestFixtures
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Several relay processes on one PostgreSQL database, as issue 16 deploys them: two `relay serve
/// --no-crawl` API processes (A and B) and two `relay crawl` workers of the built binary, over 1,000 feeds
/// served on 127.0.0.1 by a farm that logs every request with its start and end.
///
/// - The first pass of the two workers fetches every feed exactly once between them (the requests without
///   a validator: once a feed is stored, every later request for it is conditional).
/// - Every feed then gets a second post, fetched exactly once (its one `200` answer to a conditional
///   request), except those of the worker killed with SIGKILL in the middle of that pass: the feeds it held
///   are fetched again only once their lease has expired, by the other worker. In the end every post served
///   is indexed (nothing is lost), and no feed was ever fetched twice at the same moment.
/// - An event stream on A gets the `mention` of every new post exactly once, although A never crawls;
///   A and B answer the same.
@Suite(.serialized)
struct RelayClusterTests {
    /// The feeds that mention the hub.
    static let feedCount = 1000
    /// The workers' `--scan-interval`, which is also how long a lease lasts.
    static let scanInterval = 5
    /// Feeds whose answer waits ``slowDelay`` during the second pass, so it lasts long enough to kill a
    /// worker inside it: one in `slowEvery`.
    static let slowEvery = 40
    /// The wait of the slow feeds.
    static let slowDelay = Duration.milliseconds(400)
    /// Whether the test can run: the binary is built and a PostgreSQL test cluster is configured.
    static var canRun: Bool { RelayCommandTests.isBuilt && RelayStoreEngine.tested.contains(.postgres) }

    /// The whole scenario, on a fresh schema and farm; every process is killed on every path out.
    @Test(.enabled(if: canRun), .timeLimit(.minutes(3)))
    func twoCrawlersAndTwoAPIProcessesShareOneDatabase() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let database = try await RelayFixtureDatabase(engine: .postgres, groups: [])
        try await withServer(FeedFarm()) { farm in
            let feeds = ClusterFeeds(farm: farm, count: Self.feedCount)
            try await feeds.serveAndRegister(in: database.store)
            let cluster = try await RelayCluster.start(
                database: database.path, folder: folder, scanInterval: Self.scanInterval)
            defer { cluster.killAll() }
            try await exercise(cluster, feeds: feeds, farm: farm, database: database.path)
            #expect(try await cluster.stop() == [0, 0, 0], "the surviving processes stop cleanly on SIGTERM")
        }
        // The schema is dropped only now, once no process uses it.
        withExtendedLifetime(database) {}
    }

    /// The test's steps once the processes run.
    private func exercise(_ cluster: RelayCluster, feeds: ClusterFeeds, farm: FeedFarm, database: String)
        async throws
    {
        let paths = feeds.allPaths
        let started = ContinuousClock.now

        // 1. The first pass of both workers: every feed fetched once (no validator yet), shared between them.
        let firstPasses = await eventually(timeout: .seconds(90), pollingEvery: .milliseconds(50)) {
            cluster.crawlers.allSatisfy { !$0.logLines(startingWith: "relay pass ").isEmpty }
        }
        try #require(firstPasses, "both workers log their first pass within 90 s: \(cluster.crawlerLogs)")
        let firstPassTime = ContinuousClock.now - started
        let passLines = cluster.crawlers.map { $0.logLines(startingWith: "relay pass ")[0] }
        let fetched = passLines.map { PassLine($0).value("fetched") }
        #expect(fetched.reduce(0, +) == paths.count, "the first passes fetch every feed once: \(passLines)")
        #expect(fetched.allSatisfy { $0 > 0 }, "both workers take part in the first pass: \(passLines)")
        #expect(passLines.allSatisfy { PassLine($0).value("failed") == 0 }, "\(passLines)")
        let firstGets = Dictionary(grouping: await farm.state.exchanges.filter { $0.ifNoneMatch == nil }, by: \.path)
        let notOnce = paths.filter { firstGets[$0]?.count != 1 }
        #expect(notOnce.isEmpty, "fetched other than once in the first pass: \(notOnce.prefix(5))")

        // 2. An event stream on A, then a second post in every feed, some of them slow to answer.
        let stream = try EventStreamReader(
            port: cluster.apiA.port ?? 0, target: "/sse/notifications/?feed=\(encoded(feeds.hub))")
        defer { stream.close() }
        #expect(await stream.read(until: "event: connected"), "A's event stream opens")
        for index in stride(from: 0, to: feeds.count, by: Self.slowEvery) {
            await farm.state.setDelay(feeds.path(index), Self.slowDelay)
        }
        await feeds.publishSecondVersion()

        // 3. SIGKILL of a worker inside the second pass: once a tenth of the feeds have their second version
        // fetched, the first worker seen holding at least 32 feeds it claimed and has not asked for yet.
        let changedAnswers: @Sendable (FarmExchange) -> Bool = { $0.ifNoneMatch != nil && $0.status == 200 }
        let leases = try Connection(url: PostgresURL(database))
        defer { leases.close() }
        var victimIndex: Int?
        let midPass = try await eventually(timeout: .seconds(60), pollingEvery: .milliseconds(20)) {
            let exchanges = await farm.state.exchanges
            guard exchanges.count(where: changedAnswers) >= feeds.count / 10 else { return false }
            let held = try Self.unexpiredLeases(leases, at: Date())
            let pending = cluster.crawlers.map { crawler in
                Self.notAskedYet(held[crawler.process.processIdentifier] ?? [:], exchanges: exchanges).count
            }
            victimIndex = pending.firstIndex { $0 >= 32 }
            return victimIndex != nil
        }
        let victimAt = try #require(
            victimIndex, "a worker is seen inside its second pass within 60 s (\(midPass)): \(cluster.crawlerLogs)")
        let victim = cluster.crawlers[victimAt]
        let survivor = cluster.crawlers[1 - victimAt]
        try await offPool { victim.killAbruptly() }
        let killedAt = Date()
        let held = try Self.unexpiredLeases(leases, at: killedAt)[victim.process.processIdentifier] ?? [:]
        let pending = Self.notAskedYet(held, exchanges: await farm.state.exchanges)
        #expect(!pending.isEmpty, "the killed worker held feeds it had not asked for yet: \(held.count) held")

        // 4. Everything served gets indexed; A's stream gets each new mention once.
        let expected = feeds.mentionURLs(upTo: 2)
        let mentionsTarget = "/mentions/?feed=\(encoded(feeds.hub))"
        let complete = await eventually(
            timeout: .seconds(Double(6 * Self.scanInterval + 30)), pollingEvery: .milliseconds(250)
        ) {
            (try? await Self.get(port: cluster.apiA.port, mentionsTarget).json.strings("data")?.count) == expected.count
        }
        #expect(complete, "every post is indexed after the takeover: \(cluster.crawlerLogs)")
        let indexedAt = Date().timeIntervalSince(killedAt)
        #expect(
            await stream.read(until: #""type": "mention""#, occurs: feeds.count, timeout: .seconds(30)),
            "A's stream gets a mention per new post")
        let mentioned = stream.notifications.compactMap { Self.post(inNotification: $0) }
        #expect(mentioned.count == feeds.count && Set(mentioned) == feeds.secondPostURLs, "each new post notified once")

        // The other worker takes over every feed the killed one held, also those it had crawled already, in
        // its first pass after their lease expired.
        let takenOver = await eventually(
            timeout: .seconds(Double(6 * Self.scanInterval + 30)), pollingEvery: .milliseconds(250)
        ) {
            let latest = Dictionary(await farm.state.exchanges.map { ($0.path, $0.start) }, uniquingKeysWith: max)
            return held.allSatisfy { path, until in latest[path].map { $0 >= until } ?? false }
        }
        #expect(takenOver, "the other worker fetches every feed the killed one held: \(cluster.crawlerLogs)")

        // 5. What the farm saw: never two fetches of a feed at once; each second version fetched once, except
        // by the killed worker, whose feeds were fetched again only after their lease expired.
        let exchanges = await farm.state.exchanges
        let byPath = Dictionary(grouping: exchanges, by: \.path)
        let overlapping = paths.filter { path in
            let sorted = (byPath[path] ?? []).sorted { $0.start < $1.start }
            return zip(sorted, sorted.dropFirst()).contains { $0.overlaps($1) }
        }
        #expect(overlapping.isEmpty, "fetched by two workers at once: \(overlapping.prefix(5))")
        let heldPaths = Set(held.keys)
        // (The hub never changes: it is answered 304 from the second pass on.)
        let refetched = (0..<feeds.count).map(feeds.path).filter {
            !heldPaths.contains($0) && byPath[$0, default: []].count(where: changedAnswers) != 1
        }
        #expect(refetched.isEmpty, "second version fetched other than once: \(refetched.prefix(5))")
        // A request the killed worker sent just before it died may reach the farm's handler a moment later:
        // requests that start within a second of the kill are not counted as the other worker's.
        let takeoverStart = killedAt.addingTimeInterval(1)
        var takeovers: [Double] = []
        for (path, until) in held {
            let starts = byPath[path, default: []].map(\.start)
            let early = starts.filter { $0 > takeoverStart && $0 < until }
            #expect(early.isEmpty, "\(path) fetched at \(early), before its lease expired at \(until)")
            guard let first = starts.filter({ $0 >= until }).min() else {
                Issue.record("\(path), held by the killed worker, was not fetched after its lease expired")
                continue
            }
            takeovers.append(first.timeIntervalSince(killedAt))
        }

        // 6. A and B answer the same, and the relay lists every feed.
        var answers: [[Answer]] = []
        for api in [cluster.apiA, cluster.apiB] {
            answers.append([
                try await Self.get(port: api.port, "/feeds/"), try await Self.get(port: api.port, mentionsTarget),
            ])
        }
        #expect(answers[0] == answers[1], "A and B answer the same")
        #expect(Set(answers[0][0].json.strings("data") ?? []) == Set(feeds.allURLs))
        #expect(Set(answers[0][1].json.strings("data") ?? []) == expected)
        #expect(
            survivor.logLines(startingWith: "relay pass ").allSatisfy { PassLine($0).value("failed") == 0 })

        print(
            "RelayClusterTests: \(paths.count) feeds; first pass \(seconds(firstPassTime)) s "
                + "(\(passLines.map { "\(PassLine($0).value("duration_ms")) ms" }.joined(separator: ", "))), "
                + "fetched \(fetched.map(String.init).joined(separator: " + ")); killed worker held \(held.count) "
                + "feeds (\(pending.count) claimed but not asked for yet), taken over \(String(format: "%.1f", takeovers.min() ?? 0))–"
                + "\(String(format: "%.1f", takeovers.max() ?? 0)) s after the kill; all indexed "
                + "\(String(format: "%.1f", indexedAt)) s after the kill; surviving worker's passes "
                + survivor.logLines(startingWith: "relay pass ").map {
                    "\(PassLine($0).value("fetched"))/\(PassLine($0).value("not_modified"))/"
                        + "\(PassLine($0).value("duration_ms")) ms"
                }.joined(separator: ", ") + " (fetched/not modified/duration)")
    }

    // MARK: - Helpers

    /// The unexpired leases at `date`: for each worker's process ID, its feeds (path → lease end).
    private static func unexpiredLeases(_ connection: Connection, at date: Date) throws -> [Int32: [String: Date]] {
        let rows = try connection.query(
            sql: "SELECT url, lease_owner, lease_until FROM feeds WHERE lease_until > $1",
            arguments: [date.timeIntervalSince1970])
        var leases: [Int32: [String: Date]] = [:]
        for row in rows {
            let url: String = try row.value(at: 0)
            let owner: String = try row.value(at: 1)
            let until: Double = try row.value(at: 2)
            // A worker's identity is `host:pid:random`.
            let parts = owner.split(separator: ":")
            guard parts.count >= 3, let pid = Int32(parts[parts.count - 2]), let path = URL(string: url)?.path
            else { continue }
            leases[pid, default: [:]][path] = Date(timeIntervalSince1970: until)
        }
        return leases
    }

    /// The leased feeds not asked for since they were claimed (one `--scan-interval` before the lease ends).
    private static func notAskedYet(_ leases: [String: Date], exchanges: [FarmExchange]) -> [String] {
        let lastAsked = Dictionary(exchanges.map { ($0.path, $0.start) }, uniquingKeysWith: max)
        let interval = TimeInterval(scanInterval)
        return leases.filter { path, until in
            lastAsked[path].map { $0 < until.addingTimeInterval(-interval) } ?? true
        }.map(\.key)
    }

    /// An answer of an API process.
    struct Answer: Equatable {
        /// The status code.
        var status: Int
        /// The `ETag` header.
        var etag: String?
        /// The body.
        var body: [UInt8]
        /// The body as a JSON object (empty when it is not one).
        var json: JSONObject { (try? JSONObject(body)) ?? JSONObject(members: [:]) }
    }

    /// `GET http://127.0.0.1:<port><target>`.
    private static func get(port: Int?, _ target: String) async throws -> Answer {
        guard let port, let url = URL(string: "http://127.0.0.1:\(port)\(target)") else {
            throw SetupError(description: "no URL for port \(port.map(String.init) ?? "none") and \(target)")
        }
        let (data, response) = try await URLSession.shared.data(from: url)
        let http = response as? HTTPURLResponse
        return Answer(
            status: http?.statusCode ?? 0, etag: http?.value(forHTTPHeaderField: "ETag"), body: Array(data))
    }

    /// The `post` of a notification's JSON, when it is a mention.
    private static func post(inNotification data: String) -> String? {
        guard let object = try? JSONObject(Array(data.utf8)), object.string("type") == "mention" else { return nil }
        return object.string("post")
    }
}

/// Seconds with one decimal.
private func seconds(_ duration: Duration) -> String { String(format: "%.1f", duration.seconds) }

/// A worker's `relay pass key=value …` log line.
struct PassLine {
    /// The line.
    let line: String

    /// Wraps a line.
    init(_ line: String) { self.line = line }

    /// The integer after `key=`, or -1 when the line has none.
    func value(_ key: String) -> Int {
        for field in line.split(separator: " ") where field.hasPrefix("\(key)=") {
            return Int(field.dropFirst(key.count + 1)) ?? -1
        }
        return -1
    }
}

/// The processes of the test, each spawned from the built binary on one database: API processes A and B
/// (`relay serve --no-crawl`) and two `relay crawl` workers.
final class RelayCluster: Sendable {
    /// API process A.
    let apiA: SpawnedServer
    /// API process B.
    let apiB: SpawnedServer
    /// The two workers.
    let crawlers: [SpawnedServer]

    /// Wraps the started processes.
    private init(apiA: SpawnedServer, apiB: SpawnedServer, crawlers: [SpawnedServer]) {
        self.apiA = apiA
        self.apiB = apiB
        self.crawlers = crawlers
    }

    /// Starts the two API processes, then the two workers at the same moment.
    ///
    /// - Parameters:
    ///   - database: The database URL (`--db`).
    ///   - folder: The processes' home, with an empty peer list.
    ///   - scanInterval: The workers' `--scan-interval`.
    /// - Returns: The running processes.
    /// - Throws: What spawning throws, or ``SetupError`` when an API process names no port.
    static func start(database: String, folder: TemporaryFolder, scanInterval: Int) async throws -> RelayCluster {
        let peers = try folder.write("", to: "peers.txt")
        let environment = ["HOME": folder.path, "PATH": "/usr/bin:/bin"]
        let api = { @Sendable (name: String) async throws -> SpawnedServer in
            try await spawn(
                [
                    "relay", "serve", "--no-crawl", "--db", database, "--port", "0", "--site-domain", name,
                    "--relay-list", peers,
                ], environment: environment)
        }
        let crawler = { @Sendable () async throws -> SpawnedServer in
            try await spawn(
                [
                    "relay", "crawl", "--db", database, "--scan-interval", "\(scanInterval)", "--relay-list", peers,
                    "--allow-private-addresses",
                ], environment: environment)
        }
        let apiA = try await api("a.relay.test")
        let apiB = try await api("b.relay.test")
        guard apiA.port != nil, apiB.port != nil else {
            throw SetupError(description: "an API process did not start: \(apiA.log) \(apiB.log)")
        }
        async let first = crawler()
        async let second = crawler()
        let crawlers = try await [first, second]
        guard crawlers.allSatisfy({ $0.firstLine.hasPrefix("relay crawler started") }) else {
            throw SetupError(description: "a worker did not start: \(crawlers.map(\.log))")
        }
        return RelayCluster(apiA: apiA, apiB: apiB, crawlers: crawlers)
    }

    /// Spawns the built binary off the Swift concurrency pool (it waits for the start-up line).
    private static func spawn(_ arguments: [String], environment: [String: String]) async throws -> SpawnedServer {
        try await offPool {
            try SpawnedServer(executable: RelayCommandTests.binary, arguments: arguments, environment: environment)
        }
    }

    /// The workers' logs, for failure messages.
    var crawlerLogs: String { crawlers.map(\.log).joined(separator: "\n---\n") }

    /// Stops every process still running with SIGTERM.
    ///
    /// - Returns: The exit status of each one stopped (A, B, then the workers still running).
    /// - Throws: Nothing here; `offPool`'s signature.
    func stop() async throws -> [Int32] {
        let running = ([apiA, apiB] + crawlers).filter { $0.process.isRunning }
        return try await offPool { running.map { $0.terminate() } }
    }

    /// Kills every process still running (SIGKILL), for the paths where the test fails before ``stop()``.
    func killAll() {
        for process in [apiA, apiB] + crawlers where process.process.isRunning {
            kill(process.process.processIdentifier, SIGKILL)
        }
    }
}
