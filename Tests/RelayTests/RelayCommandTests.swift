import Foundation
import OrgSocialCLI
import Relay
import RelayTestFixtures
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one in-process run of the tool produced.
struct CLIResult {
    /// The exit code.
    var status: Int32
    /// Standard output.
    var output: String
    /// Standard error.
    var error: String
}

/// Runs `orgsocial <arguments>` in process with `environment` (no configuration file is found unless the
/// environment points at one).
func runCLI(_ arguments: [String], environment: [String: String]) async -> CLIResult {
    let output = OutputBox()
    let error = OutputBox()
    let context = CommandContext(
        environment: ["ORGSOCIAL_DEFAULT_MIRROR": "none"].merging(environment) { $1 },
        writeStandardOutput: { output.append($0) },
        writeStandardError: { error.append($0) })
    let status = await CLI.run(arguments, context: context)
    return CLIResult(status: status, output: output.text, error: error.text)
}

/// Bytes written by a command, possibly from several threads (the relay's log).
final class OutputBox: @unchecked Sendable {
    // @unchecked: every access holds the lock.
    private let lock = NSLock()
    private var bytes: [UInt8] = []

    /// Appends bytes.
    func append(_ more: [UInt8]) { lock.withLock { bytes += more } }

    /// Everything written, as text.
    var text: String { lock.withLock { String(decoding: bytes, as: UTF8.self) } }
}

/// `orgsocial relay serve|scan|add-feed|stats --db`: the local relay commands, in process (and `serve`
/// through the built binary).
@Suite(.timeLimit(.minutes(2)))
struct RelayCommandTests {
    /// An environment whose HOME is `folder` (so no user configuration or relay is picked up).
    private func environment(_ folder: TemporaryFolder) -> [String: String] {
        ["HOME": folder.path, "TZ": "UTC"]
    }

    @Test func relayHelpListsTheLocalAndRemoteCommands() async throws {
        let result = await runCLI(["relay", "--help"], environment: [:])
        #expect(result.status == 0)
        #expect(
            result.output == """
                OVERVIEW: Run a relay, or register a feed with one and read its feeds and statistics.

                USAGE: orgsocial relay <subcommand>

                OPTIONS:
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  serve                   Run a relay: the relay HTTP API and its crawler, over
                                          SQLite or PostgreSQL.
                  crawl                   Crawl a relay database every --scan-interval seconds,
                                          without serving the API.
                  migrate                 Copy a relay's SQLite database into an empty
                                          PostgreSQL database.
                  scan                    Crawl every feed of a relay database once, then exit.
                  add-feed                Add a feed to a relay database's crawl list.
                  register                Ask a relay to index a feed.
                  feeds                   List the feeds a relay indexes.
                  stats                   Show a relay's totals and monthly activity, or a local
                                          relay database's state.

                  See 'orgsocial help relay <subcommand>' for detailed help.

                """)
        let serve = await runCLI(["relay", "serve", "--help"], environment: [:])
        #expect(serve.status == 0)
        #expect(serve.output.contains("USAGE: orgsocial relay serve [--db <path|url>] [--host <host>] [--port <port>]"))
        #expect(serve.output.contains("$XDG_DATA_HOME/orgsocial/relay.sqlite)"))
        #expect(await runCLI(["help", "relay", "serve"], environment: [:]).output == serve.output)
    }

    @Test func scanHelpIsPinned() async {
        let result = await runCLI(["relay", "scan", "--help"], environment: [:])
        #expect(result.status == 0)
        #expect(
            result.output == """
                OVERVIEW: Crawl every feed of a relay database once, then exit.

                Reads everyone's #+FOLLOW: lines and the peer relays' feed lists for new feeds,
                then fetches every feed whose back-off allows it (with conditional GET) and
                indexes what changed. A relay running on the same database serves the new data
                at once. Use the running relay's settings: the same relay.env
                (ORGSOCIAL_RELAY_GROUPS, ORGSOCIAL_RELAY_LIST,
                ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES, …) or the same --groups, --relay-list
                and --allow-private-addresses. A feed whose address these settings refuse is
                skipped, never marked failing. Discovery reads each feed's follows as saved at
                its last download, so an unchanged feed costs one 304 either way; with
                --no-discovery, discovery runs only when due (daily, every 3 hours), as in the
                running relay's passes. Logs the pass to standard error.

                USAGE: orgsocial relay scan [--db <path|url>] [--groups <list>]
                                            [--relay-list <file>] [--allow-private-addresses]
                                            [--no-discovery] [--json]

                OPTIONS:
                  --db <path|url>         The relay's SQLite database, created when missing, or
                                          a postgres:// URL of a PostgreSQL database that
                                          several relay processes share ($ORGSOCIAL_RELAY_DB).
                                          (default: $XDG_DATA_HOME/orgsocial/relay.sqlite)
                  --groups <list>         Comma-separated group names, e.g. "Emacs,Org Social"
                                          ($ORGSOCIAL_RELAY_GROUPS). (default: none)
                  --relay-list <file>     Peer relays whose feed lists are crawled, one URL per
                                          line ($ORGSOCIAL_RELAY_LIST). (default:
                                          relay.org-social.org and orgs-relay.adsan.dev)
                  --allow-private-addresses
                                          Also accept feeds on loopback, private and link-local
                                          addresses (tests, one-machine setups)
                                          ($ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES=1).
                  --no-discovery          Run follows and peer discovery only when due, not now.
                  --json                  Print the pass's report as JSON.
                  -h, --help              Show help information.

                """)
    }

    @Test(arguments: RelayStoreEngine.tested)
    func addFeedScanAndStatsWorkOnTheDatabaseARelayServes(engine: RelayStoreEngine) async throws {
        try await withTestbed(engine: engine) { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let peers = try home.write("", to: "no-peers.txt")
            let database = bed.configuration.databasePath
            let env = environment(home)

            let added = await runCLI(
                ["relay", "add-feed", "  \(bed.alice) ", "--db", database, "--allow-private-addresses"],
                environment: env)
            #expect(added.status == 0)
            #expect(added.output == "Added \(bed.alice) to the crawl list; the next crawl pass indexes its posts.\n")
            let again = await runCLI(
                ["relay", "add-feed", bed.alice, "--db", database, "--allow-private-addresses", "--json"],
                environment: env)
            #expect(again.status == 0)
            // `isNew`, as `relay register --json` says it: this run did not add the feed.
            #expect(again.output == "{\n  \"feed\" : \"\(bed.alice)\",\n  \"isNew\" : false,\n  \"status\" : 200\n}\n")
            let refusedJSON = await runCLI(
                ["relay", "add-feed", bed.dave, "--db", database, "--allow-private-addresses", "--json"],
                environment: env)
            #expect(refusedJSON.status == 1)
            #expect(
                refusedJSON.output == """
                    {
                      "feed" : "\(bed.dave)",
                      "isNew" : false,
                      "message" : "Invalid Org Social feed: Content does not appear to be a valid Org Social file \
                    (missing basic metadata)",
                      "status" : 400
                    }

                    """)
            let refused = await runCLI(
                ["relay", "add-feed", bed.dave, "--db", database, "--allow-private-addresses"], environment: env)
            #expect(refused.status == 1)
            #expect(refused.output.isEmpty)
            #expect(
                refused.error.contains(
                    "Error: \(bed.dave) was not added: Invalid Org Social feed: Content does not appear to be a valid "
                        + "Org Social file (missing basic metadata)."))
            let guarded = await runCLI(["relay", "add-feed", bed.bob, "--db", database], environment: env)
            #expect(guarded.status == 1)
            #expect(guarded.error.contains("this relay is set not to fetch private addresses"))
            #expect(
                guarded.error.hasSuffix(
                    "To add a feed on a private address, give --allow-private-addresses "
                        + "(or ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES=1).\n"))
            #expect(!refused.error.contains("--allow-private-addresses"))

            let scan = await runCLI(
                [
                    "relay", "scan", "--db", database, "--allow-private-addresses", "--relay-list", peers, "--groups",
                    "Emacs,Org Social", "--json",
                ], environment: env)
            #expect(scan.status == 0)
            // alice follows bob and carol: follows discovery adds and crawls them in the same pass.
            let report = try JSONObject(Array(scan.output.utf8))
            #expect(report.int("feeds") == 1)
            #expect(report.int("discovered") == 2)
            #expect(report.int("fetched") == 3)
            #expect(report.int("postsAdded") == 12)
            #expect(scan.error.contains("relay pass feeds=1 fetched=3"))
            let warm = await runCLI(
                [
                    "relay", "scan", "--db", database, "--allow-private-addresses", "--relay-list", peers,
                    "--no-discovery",
                ],
                environment: env)
            #expect(warm.status == 0)
            #expect(warm.output.hasPrefix("Crawled 3 feeds in "))
            #expect(warm.output.contains(": 0 fetched, 3 not modified, 0 waiting (back-off), 0 failed.\n"))

            // The relay running on that database serves the scan's data at once.
            #expect(try await bed.object("/feeds/").strings("data") == [bed.alice, bed.bob, bed.carol])
            #expect(try await bed.object("/polls/").strings("data") == ["\(bed.alice)#2025-02-02T09:00:00+0100"])

            let stats = await runCLI(["relay", "stats", "--db", database], environment: env)
            #expect(stats.status == 0)
            // alice → bob and alice → carol from the discovery, and bob → alice from the moment bob (discovered
            // and crawled in the same pass) was indexed.
            #expect(
                stats.output.hasPrefix(
                    "database: \(bed.configuration.databaseDisplayName)\nfeeds: 3 (0 failing, 0 not fetched yet), profiles: 3, posts: 12, follows: 3\n"
                ))
            #expect(stats.output.contains("last pass: "))
            #expect(stats.output.contains(", 0 fetched, 3 not modified, 0 failed,"))
            // The outgoing Webmention queue, on either engine (nothing is sent by a scan).
            #expect(stats.output.contains("\nwebmentions: "))
            #expect(stats.output.contains(" pending, 0 sent, 0 failed, 0 no_endpoint\n"))
            let json = await runCLI(["relay", "stats", "--db", database, "--json"], environment: env)
            let summary = try JSONObject(Array(json.output.utf8))
            #expect(summary.int("feeds") == 3)
            #expect(summary.int("posts") == 12)
            #expect(summary.object("lastPass")?.int("notModified") == 3)
        }
    }

    @Test func theDefaultDatabaseLivesUnderXDGDataHome() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        var env = environment(home)
        // Without a relay or a database: the default relay (here one where nothing listens).
        env["ORGSOCIAL_DEFAULT_RELAY"] = "http://127.0.0.1:1"
        let none = await runCLI(["relay", "stats"], environment: env)
        #expect(none.status == 1)
        #expect(none.error.contains("127.0.0.1:1"), "\(none.error)")
        env["XDG_DATA_HOME"] = "\(home.path)/data"
        let peers = try home.write("", to: "peers.txt")
        let missing = await runCLI(["relay", "scan", "--relay-list", peers], environment: env)
        #expect(missing.status == 1)
        #expect(
            missing.error.hasPrefix(
                "Error: There is no relay database at '\(home.path)/data/orgsocial/relay.sqlite'"))
        // A relay creates it (`relay serve`; here the service the command runs, without listening).
        try FileManager.default.createDirectory(atPath: "\(home.path)/data", withIntermediateDirectories: false)
        _ = try await RelayService(
            configuration: RelayConfiguration(databasePath: "\(home.path)/data/orgsocial/relay.sqlite"))
        let scan = await runCLI(["relay", "scan", "--relay-list", peers], environment: env)
        #expect(scan.status == 0)
        #expect(scan.output.hasPrefix("Crawled 0 feeds in "))
        let stats = await runCLI(["relay", "stats"], environment: env)
        #expect(stats.status == 0)
        #expect(stats.output.hasPrefix("database: \(home.path)/data/orgsocial/relay.sqlite\nfeeds: 0 "))
        // $ORGSOCIAL_RELAY_DB names the database even when a relay is configured for the client commands.
        let named = await runCLI(
            ["relay", "stats"],
            environment: [
                "HOME": home.path, "ORGSOCIAL_RELAY": "http://127.0.0.1:1",
                "ORGSOCIAL_RELAY_DB": "\(home.path)/data/orgsocial/relay.sqlite",
            ])
        #expect(named.status == 0)
        #expect(named.output == stats.output)
    }

    @Test func badOptionsAndUnusableFilesSayWhatToDo() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let env = environment(home)
        let port = await runCLI(["relay", "serve", "--port", "http"], environment: env)
        #expect(port.status == 2)
        #expect(port.error.hasPrefix("Error: The value 'http' is invalid for '--port <port>'. Give a whole number"))
        let domain = await runCLI(["relay", "serve", "--site-domain", "https://relay.example.org/"], environment: env)
        #expect(domain.status == 2)
        let both = await runCLI(
            ["relay", "stats", "--relay", "http://127.0.0.1:1", "--db", "x.sqlite"], environment: env)
        #expect(both.status == 2)
        #expect(
            both.error.hasPrefix("Error: Give either --relay (a running relay) or --db (a relay database), not both."))

        let blocker = try home.write("not a folder", to: "file")
        let database = await runCLI(
            ["relay", "serve", "--db", "\(blocker)/relay.sqlite", "--port", "0"], environment: env)
        #expect(database.status == 1)
        #expect(database.error.hasPrefix("Error: Cannot open the relay database '\(blocker)/relay.sqlite': "))
        #expect(database.error.contains("To use another file, give --db PATH."))
        let list = await runCLI(
            ["relay", "scan", "--db", home.path + "/r.sqlite", "--relay-list", home.path + "/missing.txt"],
            environment: env)
        #expect(list.status == 1)
        #expect(list.error.hasPrefix("Error: Cannot read the relay list '\(home.path)/missing.txt': "))
        #expect(
            list.error.hasSuffix(
                "Give another file with --relay-list, or leave it out to use the two public relays.\n"))

        let environmentPort = await runCLI(
            ["relay", "serve", "--db", home.path + "/r.sqlite"],
            environment: env.merging(["ORGSOCIAL_RELAY_PORT": "x"]) { $1 })
        #expect(environmentPort.status == 1)
        #expect(environmentPort.error.contains("ORGSOCIAL_RELAY_PORT"))
    }

    @Test func groupsThatCannotBeReadOrNameOneGroupTwiceAreUsageErrors() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let database = home.path + "/r.sqlite"

        let slash = await runCLI(
            ["relay", "serve", "--db", database, "--port", "0", "--groups", "Emacs,a/b"], environment: environment(home)
        )
        let twice = await runCLI(
            ["relay", "serve", "--db", database, "--port", "0", "--groups", "Emacs,emacs"],
            environment: environment(home))
        let variable = await runCLI(
            ["relay", "stats", "--db", database],
            environment: environment(home).merging(["ORGSOCIAL_RELAY_GROUPS": "Org Social,org social"]) { $1 })

        #expect(slash.status == 2)
        #expect(slash.error.hasPrefix("Error: The value 'a/b' is invalid for '--groups <list>'."), "\(slash.error)")
        #expect(twice.status == 2)
        #expect(twice.error.contains("'Emacs' and 'emacs' are the same group (/groups/emacs/)"), "\(twice.error)")
        #expect(variable.status == 1)
        #expect(variable.error.contains("ORGSOCIAL_RELAY_GROUPS"), "\(variable.error)")
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func statsWithoutARelayOrADatabaseAsksTheDefaultRelay() async throws {
        try await withTestbed { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let env = environment(home).merging(["ORGSOCIAL_DEFAULT_RELAY": "http://127.0.0.1:\(bed.relayPort)"]) {
                $1
            }

            let stats = await runCLI(["relay", "stats"], environment: env)

            #expect(stats.status == 0, "\(stats.error)")
            #expect(stats.output.hasPrefix("feeds: "), "\(stats.output)")
            #expect(stats.output.contains("active groups: "))
            #expect(!FileManager.default.fileExists(atPath: home.path + "/.local"))
        }
    }

    @Test func aFeedThatCannotBeFetchedIsNotAddedInOneSentence() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let database = home.path + "/relay.sqlite"
        _ = try await RelayService(configuration: RelayConfiguration(databasePath: database))

        let result = await runCLI(
            ["relay", "add-feed", "http://127.0.0.1:1/social.org", "--db", database, "--allow-private-addresses"],
            environment: environment(home))

        let message = try #require(
            result.error.split(separator: "\n").first { $0.hasPrefix("Error: ") }, "\(result.error)")
        #expect(result.status == 1)
        #expect(message.hasPrefix("Error: http://127.0.0.1:1/social.org was not added: "))
        #expect(message.hasSuffix("try again."), "\(message)")
        #expect(!message.contains(".."), "\(message)")
    }

    @Test func serveReportsAPortInUse() async throws {
        try await withTestbed { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }
            let result = await runCLI(
                [
                    "relay", "serve", "--db", home.path + "/r.sqlite", "--port", String(bed.relayPort),
                    "--scan-interval", "0",
                ],
                environment: environment(home))
            #expect(result.status == 1)
            #expect(result.error.contains("the address is already in use"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: home.path).isEmpty)
        }
    }

    @Test func serveMakesTheFoldersOfTheDefaultDatabaseOnAFreshAccount() async throws {
        try await withTestbed { bed in
            let home = try TemporaryFolder()
            defer { home.remove() }

            // No ~/.local/share yet; the port is taken, so the relay stops once its database is open.
            let result = await runCLI(
                ["relay", "serve", "--port", String(bed.relayPort), "--scan-interval", "0"],
                environment: environment(home))

            #expect(result.status == 1)
            #expect(result.error.contains("the address is already in use"), "\(result.error)")
            #expect(FileManager.default.fileExists(atPath: home.path + "/.local/share/orgsocial"))
        }
    }

    @Test func readingAndAddingCommandsCreateNoDatabaseAndServeCreatesOneFolderLevel() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let env = environment(home)
        let peers = try home.write("", to: "peers.txt")
        let mistyped = home.path + "/relya/relay.sqlite"
        for arguments in [
            ["relay", "scan", "--db", mistyped, "--relay-list", peers],
            ["relay", "add-feed", "https://ana.example.org/social.org", "--db", mistyped],
            ["relay", "stats", "--db", mistyped],
        ] {
            let result = await runCLI(arguments, environment: env)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.hasPrefix("Error: There is no relay database at '\(mistyped)'"), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: home.path + "/relya"))
        let deep = await runCLI(
            ["relay", "serve", "--db", home.path + "/a/b/relay.sqlite", "--port", "0"], environment: env)
        #expect(deep.status == 1)
        #expect(deep.error.contains("its folder cannot be created"), "\(deep.error)")
        #expect(!FileManager.default.fileExists(atPath: home.path + "/a"))
        _ = try await RelayService(configuration: RelayConfiguration(databasePath: home.path + "/a/relay.sqlite"))
        #expect(FileManager.default.fileExists(atPath: home.path + "/a/relay.sqlite"))
    }

    /// The built binary next to the test bundle (what `swift build --build-tests` produces).
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("orgsocial")
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test(.enabled(if: isBuilt)) func serveRunsUntilSIGTERM() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let peers = try home.write("", to: "peers.txt")
        let server = try SpawnedServer(
            executable: Self.binary,
            arguments: [
                "relay", "serve", "--db", "\(home.path)/db/relay.sqlite", "--port", "0", "--scan-interval", "0",
                "--relay-list", peers, "--groups", "Emacs, Org Social",
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        let log = server.log
        #expect(log.hasPrefix("relay listening on http://127.0.0.1:"))
        #expect(log.contains("groups Emacs, Org Social; crawl off; peers none)"))
        let port = try #require(server.port)
        #expect(log.contains("site domain localhost:\(port);"))
        let url = try #require(URL(string: "http://127.0.0.1:\(port)/groups/"))
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(try JSONObject(Array(data)).strings("data") == ["Emacs", "Org Social"])

        #expect(server.terminate() == 0)
        #expect(server.log.contains("relay stopping (signal 15)"))
        #expect(server.log.hasSuffix("relay stopped\n"))
    }

    @Test(.enabled(if: isBuilt)) func serveWithAMetricsAddressServesMetricsOnItsOwnListener() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let peers = try home.write("", to: "peers.txt")
        let server = try SpawnedServer(
            executable: Self.binary,
            arguments: [
                "relay", "serve", "--db", "\(home.path)/db/relay.sqlite", "--port", "0", "--scan-interval", "0",
                "--relay-list", peers, "--metrics-address", "127.0.0.1:0",
            ],
            environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
        let apiPort = try #require(server.port)
        let announced = await eventually { !server.logLines(startingWith: "relay metrics on ").isEmpty }
        let line = try #require(server.logLines(startingWith: "relay metrics on http://127.0.0.1:").first)
        let metricsPort = try #require(
            Int(line.dropFirst("relay metrics on http://127.0.0.1:".count).prefix { $0.isNumber }))
        let (metrics, onTheAPI, ready) = try await offPool {
            (
                try RawConnection.exchange(
                    port: metricsPort, request: "GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"),
                try RawConnection.exchange(
                    port: apiPort, request: "GET /metrics HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n"),
                try RawConnection.exchange(
                    port: apiPort, request: "GET /readyz HTTP/1.1\r\nHost: m\r\nConnection: close\r\n\r\n")
            )
        }

        #expect(announced)
        #expect(line.hasSuffix("/metrics"))
        #expect(metricsPort != apiPort)
        #expect(metrics.status == 200)
        #expect(metrics.text.contains("# TYPE orgsocial_relay_requests_total counter\n"))
        #expect(onTheAPI.status == 404)
        #expect(ready.status == 200)
        #expect(server.terminate() == 0)
    }

    @Test func serveRefusesAMetricsAddressWithoutAPort() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let option = await runCLI(["relay", "serve", "--metrics-address", "127.0.0.1"], environment: environment(home))
        var variableEnvironment = environment(home)
        variableEnvironment["ORGSOCIAL_RELAY_METRICS_ADDRESS"] = "9464"
        variableEnvironment["ORGSOCIAL_RELAY_DB"] = "\(home.path)/relay.sqlite"
        let variable = await runCLI(["relay", "serve", "--port", "0"], environment: variableEnvironment)

        #expect(option.status == 2)
        #expect(
            option.error.hasPrefix(
                "Error: The value '127.0.0.1' is invalid for '--metrics-address <host:port>'. Give an address and port")
        )
        #expect(variable.status == 1)
        #expect(variable.error.contains("ORGSOCIAL_RELAY_METRICS_ADDRESS"))
    }

    @Test func serveRefusesAMirrorPrefixThatWouldHideTheRelayAPI() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let option = await runCLI(["relay", "serve", "--mirror-prefix", "/feeds/"], environment: environment(home))
        #expect(option.status == 2)
        #expect(option.error.contains("is invalid for '--mirror-prefix <path>'. Give a path such as /api/"))
        var variableEnvironment = environment(home)
        variableEnvironment["ORGSOCIAL_RELAY_MIRROR_PREFIX"] = "/a b/"
        variableEnvironment["ORGSOCIAL_RELAY_DB"] = "\(home.path)/relay.sqlite"
        let variable = await runCLI(["relay", "serve", "--port", "0"], environment: variableEnvironment)
        #expect(variable.status == 1)
        #expect(variable.error.contains("ORGSOCIAL_RELAY_MIRROR_PREFIX"))
    }

    @Test func serveHelpNamesTheClientLimitsAndTheirVariables() async {
        let help = await runCLI(["relay", "serve", "--help"], environment: [:]).output
        for name in [
            "--max-connections-per-address <n>", "$ORGSOCIAL_RELAY_MAX_CONNECTIONS_PER_ADDRESS",
            "--header-timeout <seconds>", "$ORGSOCIAL_RELAY_HEADER_TIMEOUT", "--max-streams <n>",
            "$ORGSOCIAL_RELAY_MAX_STREAMS)", "--max-streams-per-address <n>",
            "$ORGSOCIAL_RELAY_MAX_STREAMS_PER_ADDRESS", "--registrations-per-hour <n>",
            "$ORGSOCIAL_RELAY_REGISTRATIONS_PER_HOUR", "--no-webmentions", "--metrics-address <host:port>",
            "$ORGSOCIAL_RELAY_METRICS_ADDRESS", "/healthz", "/readyz",
        ] {
            #expect(help.contains(name), "\(name)")
        }
    }

    @Test(.enabled(if: isBuilt)) func serveThrottlesRegistrationsAsItsEnvironmentSays() async throws {
        let home = try TemporaryFolder()
        defer { home.remove() }
        let peers = try home.write("", to: "peers.txt")
        let homePath = home.path
        // Everything that blocks (the child's start-up line, its exit) runs off the Swift pool. A site
        // domain spares the relay its second bind of port 0, which can race with other relays starting.
        let (statuses, exitStatus) = try await offPool { () throws -> ([Int], Int32) in
            let server = try SpawnedServer(
                executable: Self.binary,
                arguments: [
                    "relay", "serve", "--db", "\(homePath)/db/relay.sqlite", "--port", "0", "--scan-interval", "0",
                    "--relay-list", peers, "--site-domain", "relay.test",
                ],
                environment: [
                    "HOME": homePath, "PATH": "/usr/bin:/bin", "ORGSOCIAL_RELAY_REGISTRATIONS_PER_HOUR": "2",
                ])
            guard let port = server.port else { throw RawConnection.Failure(description: "no port in \(server.log)") }
            var statuses: [Int] = []
            for index in 0..<3 {
                let body = #"{"feed": "http://127.0.0.1:9/\#(index)/social.org"}"#
                statuses.append(
                    try RawConnection.exchange(
                        port: port,
                        request: "POST /feeds/ HTTP/1.1\r\nHost: relay.test\r\nContent-Type: application/json\r\n"
                            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                    ).status)
            }
            return (statuses, server.terminate())
        }
        #expect(statuses.prefix(2).allSatisfy { $0 != 429 })
        #expect(statuses.last == 429)
        #expect(exitStatus == 0)
    }
}
