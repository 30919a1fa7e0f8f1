import Foundation
import TestSupport
import Testing

@testable import OrgSocialCLI

#if canImport(Glibc)
    import Glibc
#endif
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `orgsocial serve` and `orgsocial serve token`: help, token files, and a real server started from the
/// built binary.
struct ServeCommandTests {
    static let serveHelp = """
        OVERVIEW: Host social.org feeds over HTTP, with safe uploads.

        Serves every social.org and */social.org under the root folder (nothing else)
        with ETag, Last-Modified, conditional GET (304), byte ranges, gzip and CORS.
        Feeds are updated with PUT to their own URL, with 'Authorization: Bearer
        <token>' (create tokens with 'orgsocial serve token') and 'If-Match: <etag>' (or
        'If-None-Match: *' to create a feed): a stale ETag gets 412, so no edit is ever
        lost. The Org Social Host API (POST /signup, /upload, /delete, /redirect,
        /remove-redirect, GET /public-routes) is served too.

        Logs one line per request to standard error (unless --quiet); with --log-format
        json, each line is a JSON object. Stops gracefully on SIGINT or SIGTERM; SIGHUP
        (systemctl reload) keeps it running: the token file is read again whenever it
        changes, so there is nothing else to reload. The node keeps its state in
        <root>/.orgsocial/, or in --state-dir (for a root it cannot write). GET /healthz
        answers while the node runs and GET /readyz while its root is a folder (503
        otherwise); with --metrics-address, Prometheus metrics (requests, latency,
        refused connections, feeds) are served at /metrics on a listener of their own.

        Limits against abusive clients are on by default: connections per address, a
        deadline for request heads, a memory budget for uploads and signups per address
        and hour. Uploads without a valid token are refused before their body is read.
        Behind a reverse proxy every client has the proxy's address: give 0 to
        --max-connections-per-address, --signups-per-hour and --auth-failures there, and
        limit per client in the proxy.

        USAGE: orgsocial serve --root <dir> [--host <host>] [--port <port>]
                               [--token-file <file>] [--state-dir <dir>]
                               [--site-url <url>] [--max-upload-bytes <n>]
                               [--max-connections-per-address <n>]
                               [--header-timeout <seconds>]
                               [--max-buffered-upload-bytes <n>]
                               [--signups-per-hour <n>] [--auth-failures <n>] [--quiet]
                               [--metrics-address <host:port>] [--log-format <format>]

        OPTIONS:
          --root <dir>            The folder holding the feeds.
          --host <host>           The address to listen on. (default: 127.0.0.1)
          --port <port>           The TCP port; 0 picks a free one. (default: 8080)
          --token-file <file>     The upload token file. (default:
                                  <state-dir>/tokens.json)
          --state-dir <dir>       The folder of the node's accounts, secret and tokens;
                                  one outside a read-only root lets the node serve it.
                                  (default: <root>/.orgsocial)
          --site-url <url>        The public base URL, used in Host API vfiles and
                                  public URLs. (default: http://<host>:<port>)
          --max-upload-bytes <n>  The largest feed accepted by uploads. (default:
                                  5242880)
          --max-connections-per-address <n>
                                  The most connections one client address may hold; 0
                                  for no limit (behind a reverse proxy, which makes
                                  every client one address). (default: 32)
          --header-timeout <seconds>
                                  Seconds a client has to send a whole request head,
                                  however slowly it trickles; 0 for no deadline.
                                  (default: 10)
          --max-buffered-upload-bytes <n>
                                  The most upload bytes held in memory across all
                                  connections; uploads past it get 503. 0 for no limit.
                                  (default: 67108864)
          --signups-per-hour <n>  Host API signups allowed per client address and hour;
                                  more get 429. 0 for no limit. (default: 10)
          --auth-failures <n>     Wrong tokens or vfiles allowed per client address,
                                  refilled over 10 minutes; more get 429. 0 for no
                                  limit. (default: 20)
          --quiet                 Do not log requests.
          --metrics-address <host:port>
                                  Serve Prometheus metrics at http://<host:port>/metrics
                                  on a listener of their own, e.g. 127.0.0.1:9464; keep
                                  it private. (default: off)
          --log-format <format>   How log lines are written: text, or json for one JSON
                                  object per line with the time, the message and each
                                  key=value pair as a member (journald, Loki). (values:
                                  text, json; default: text)
          -h, --help              Show help information.

        SUBCOMMANDS:
          token                   Create or revoke a token that may upload a feed with
                                  PUT.

          See 'orgsocial help serve <subcommand>' for detailed help.

        """

    @Test func serveHelpIsPinned() async {
        let result = await runCLI(["serve", "--help"])
        #expect(result.status == 0)
        #expect(result.output == Self.serveHelp)
        #expect(await runCLI(["help", "serve"]).output == Self.serveHelp)
    }

    @Test func tokenPrintsANewTokenAndStoresOnlyItsHash() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = await runCLI(["serve", "token", "--root", folder.url.path, "--feed", "alice/social.org"])
        #expect(result.status == 0)
        let token = result.output.trimmingCharacters(in: .newlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit))
        #expect(result.error.hasPrefix("note: created a token for alice/social.org"))
        let file = folder.path(".orgsocial/tokens.json")
        let stored = try String(contentsOfFile: file, encoding: .utf8)
        #expect(stored.contains("\"feed\": \"alice/social.org\""))
        #expect(!stored.contains(token))
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect(attributes[.posixPermissions] as? Int == 0o600)

        let second = await runCLI(["serve", "token", "--root", folder.url.path, "--feed", "/alice/social.org"])
        #expect(second.output != result.output)
        let revoked = await runCLI([
            "serve", "token", "--root", folder.url.path, "--feed", "alice/social.org", "--revoke",
        ])
        #expect(revoked.status == 0)
        #expect(revoked.output == "Revoked 2 tokens of alice/social.org.\n")
    }

    @Test func tokenRejectsBadFeedPathsAndMissingFolders() async throws {
        let badPath = await runCLI(["serve", "token", "--root", "/tmp", "--feed", "../etc/social.org"])
        #expect(badPath.status == 2)
        #expect(badPath.error.hasPrefix("Error: The value '../etc/social.org' is invalid for '--feed <path>'."))
        let otherName = await runCLI(["serve", "token", "--root", "/tmp", "--feed", "alice/notes.txt"])
        #expect(otherName.status == 2)
        let noRoot = await runCLI(["serve", "token", "--feed", "alice/social.org"])
        #expect(noRoot.status == 2)
        #expect(noRoot.error.hasPrefix("Error: Please give the feed folder with '--root <dir>'"))
        let missing = await runCLI(["serve", "token", "--root", "/nonexistent/orgsocial", "--feed", "social.org"])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("Error: The feed root '/nonexistent/orgsocial' does not exist."))
    }

    @Test func serveRejectsBadOptionsAsUsageErrors() async {
        let noRoot = await runCLI(["serve"])
        #expect(noRoot.status == 2)
        #expect(noRoot.error.hasPrefix("Error: Missing expected argument '--root <dir>'"))
        let badPort = await runCLI(["serve", "--root", "/tmp", "--port", "70000"])
        #expect(badPort.status == 2)
        #expect(badPort.error.hasPrefix("Error: The value '70000' is invalid for '--port <port>'."))
        let badSite = await runCLI(["serve", "--root", "/tmp", "--site-url", "example.org"])
        #expect(badSite.status == 2)
        let missingRoot = await runCLI(["serve", "--root", "/nonexistent/orgsocial", "--port", "0"])
        #expect(missingRoot.status == 1)
        #expect(missingRoot.error.contains("does not exist"))
        let badHost = await runCLI(["serve", "--root", "/tmp", "--host", "example.invalid", "--port", "0"])
        #expect(badHost.status == 2)
        #expect(badHost.error.hasPrefix("Error: The value 'example.invalid' is invalid for '--host <host>'."))
    }

    /// The `orgsocial` binary next to the test bundle, when this build produced it.
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("orgsocial")
    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func serveLogsRequestsAndStopsOnSIGTERM() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("#+TITLE: Ana\n#+NICK: ana\n\n* Posts\n", to: "social.org")
        let server = try SpawnedServer(
            executable: Self.binary, arguments: ["serve", "--root", folder.url.path, "--port", "0"])
        // The start-up line names the address (with the real port) and the root.
        #expect(server.log.hasPrefix("serve: listening on http://127.0.0.1:"))
        #expect(server.log.contains("(root \(folder.url.path);"))
        let port = try #require(server.port)

        let url = try #require(URL(string: "http://127.0.0.1:\(port)/social.org"))
        let (data, _) = try await URLSession.shared.data(from: url)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("#+TITLE: Ana"))

        #expect(server.terminate() == 0)
        #expect(server.log.contains("\"GET /social.org\" 200 "))
        #expect(server.log.contains("serve: stopping (signal 15)"))
        #expect(server.log.hasSuffix("serve: stopped\n"))
    }

    @Test func serveRejectsBadLimitValuesAsUsageErrors() async {
        let negative = await runCLI(["serve", "--root", "/tmp", "--max-connections-per-address", "-1"])
        #expect(negative.status == 2)
        #expect(negative.error.hasPrefix("Error: The value '-1' is invalid for '--max-connections-per-address <n>'."))
        let words = await runCLI(["serve", "--root", "/tmp", "--signups-per-hour", "many"])
        #expect(words.status == 2)
        #expect(words.error.hasPrefix("Error: The value 'many' is invalid for '--signups-per-hour <n>'."))
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func serveLimitsSignupsPerAddressByDefault() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let root = folder.url.path
        // Everything that blocks (the child's start-up line, its exit) runs off the Swift pool.
        let (statuses, retryAfter, exitStatus) = try await offPool { () throws -> ([Int], String?, Int32) in
            let server = try SpawnedServer(
                executable: Self.binary, arguments: ["serve", "--root", root, "--port", "0", "--quiet"])
            guard let port = server.port else { throw RawConnection.Failure(description: "no port in \(server.log)") }
            var statuses: [Int] = []
            var retryAfter: String?
            for index in 0..<11 {
                let body = #"{"nick": "user\#(index)"}"#
                let response = try RawConnection.exchange(
                    port: port,
                    request: "POST /signup HTTP/1.1\r\nHost: node.test\r\nContent-Type: application/json\r\n"
                        + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
                statuses.append(response.status)
                retryAfter = response.header("Retry-After")
            }
            return (statuses, retryAfter, server.terminate())
        }
        #expect(statuses == Array(repeating: 200, count: 10) + [429])
        #expect(retryAfter.flatMap(Int.init).map { (300...360).contains($0) } == true)
        #expect(exitStatus == 0)
    }

    @Test(.enabled(if: isBuilt), .timeLimit(.minutes(1)))
    func serveTakesTheLimitOfWrongTokensAndZeroTurnsItOff() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        try folder.write("#+TITLE: Ana\n#+NICK: ana\n\n* Posts\n", to: "social.org")
        let root = folder.url.path
        let statuses = try await offPool { () throws -> [[Int]] in
            try [["--auth-failures", "2"], ["--auth-failures", "0"]].map { option in
                let server = try SpawnedServer(
                    executable: Self.binary, arguments: ["serve", "--root", root, "--port", "0", "--quiet"] + option)
                defer { _ = server.terminate() }
                guard let port = server.port else {
                    throw RawConnection.Failure(description: "no port in \(server.log)")
                }
                return try (0..<3).map { _ in
                    try RawConnection.exchange(
                        port: port,
                        request: "PUT /social.org HTTP/1.1\r\nHost: node.test\r\nAuthorization: Bearer nope\r\n"
                            + "If-Match: *\r\nContent-Length: 1\r\nConnection: close\r\n\r\nx"
                    ).status
                }
            }
        }
        #expect(statuses == [[401, 401, 429], [401, 401, 401]])
        let words = await runCLI(["serve", "--root", "/tmp", "--auth-failures", "-1"])
        #expect(words.status == 2)
        #expect(words.error.hasPrefix("Error: The value '-1' is invalid for '--auth-failures <n>'."))
    }
}
