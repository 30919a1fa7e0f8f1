import FeedHosting
import Foundation
import HTTPCore
import HTTPServer
import Synchronization
import SystemSupport

/// `orgsocial serve --root <dir> [...]`: runs the Org Social node (see `FeedNode`) until SIGINT or
/// SIGTERM; `orgsocial serve token` manages upload tokens.
struct ServeCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "serve",
            abstract: "Host social.org feeds over HTTP, with safe uploads.",
            discussion: """
                Serves every social.org and */social.org under the root folder (nothing else) with ETag, \
                Last-Modified, conditional GET (304), byte ranges, gzip and CORS. Feeds are updated with \
                PUT to their own URL, with 'Authorization: Bearer <token>' (create tokens with 'orgsocial \
                serve token') and 'If-Match: <etag>' (or 'If-None-Match: *' to create a feed): a stale \
                ETag gets 412, so no edit is ever lost. The Org Social Host API (POST /signup, /upload, \
                /delete, /redirect, /remove-redirect, GET /public-routes) is served too.

                Logs one line per request to standard error (unless --quiet); with --log-format json, \
                each line is a JSON object. Stops gracefully on \
                SIGINT or SIGTERM; SIGHUP (systemctl reload) keeps it running: the token file is read \
                again whenever it changes, so there is nothing else to reload. The node keeps its state in \
                <root>/.orgsocial/, or in --state-dir (for a root it cannot write). GET /healthz answers \
                while the node runs and GET /readyz while its root is a folder (503 otherwise); with \
                --metrics-address, Prometheus metrics (requests, latency, refused connections, feeds) are \
                served at /metrics on a listener of their own.

                Limits against abusive clients are on by default: connections per address, a deadline \
                for request heads, a memory budget for uploads and signups per address and hour. Uploads \
                without a valid token are refused before their body is read. Behind a reverse proxy \
                every client has the proxy's address: give 0 to --max-connections-per-address, \
                --signups-per-hour and --auth-failures there, and limit per client in the proxy.
                """,
            options: [
                .value("root", valueName: "dir", help: "The folder holding the feeds.", isRequired: true),
                .value("host", help: "The address to listen on.", defaultValue: "127.0.0.1"),
                .value("port", help: "The TCP port; 0 picks a free one.", defaultValue: "8080"),
                .value(
                    "token-file", valueName: "file", help: "The upload token file.",
                    defaultValue: "<state-dir>/tokens.json"),
                .value(
                    "state-dir", valueName: "dir",
                    help: "The folder of the node's accounts, secret and tokens; one outside a read-only root "
                        + "lets the node serve it.",
                    defaultValue: "<root>/.orgsocial"),
                .value(
                    "site-url", valueName: "url",
                    help: "The public base URL, used in Host API vfiles and public URLs.",
                    defaultValue: "http://<host>:<port>"),
                .value(
                    "max-upload-bytes", valueName: "n", help: "The largest feed accepted by uploads.",
                    defaultValue: "5242880"),
                ClientLimitOptions.connectionsPerAddressOption(),
                ClientLimitOptions.headerTimeoutOption(),
                ClientLimitOptions.bufferedBytesOption,
                ClientLimitOptions.signupsOption,
                .value(
                    "auth-failures", valueName: "n",
                    help: "Wrong tokens or vfiles allowed per client address, refilled over 10 minutes; more get "
                        + "429. 0 for no limit.",
                    defaultValue: "20"),
                .flag("quiet", help: "Do not log requests."),
                MetricsAddressOption.definition(variable: nil),
                LogFormatOption.definition(variable: nil),
            ],
            subcommands: [ServeTokenCommand.self],
            runsWithoutSubcommand: true, handlesTerminationSignals: true)
    }

    /// `--root`.
    var root: String
    /// `--host`.
    var host: String
    /// `--port`.
    var port: Int
    /// `--token-file`.
    var tokenFile: String?
    /// `--state-dir`.
    var stateFolder: String?
    /// `--site-url`.
    var siteURL: String?
    /// `--max-upload-bytes`.
    var maximumUploadBytes: Int
    /// `--quiet`.
    var isQuiet: Bool
    /// The client limits and the signup rate.
    var limits: ClientLimitOptions
    /// `--auth-failures`: wrong secrets allowed per address and 10 minutes; 0 for no limit.
    var authFailures: Int
    /// `--metrics-address`.
    var metrics: MetricsAddressOption
    /// `--log-format`.
    var logFormat: LogFormatOption

    init(parsing arguments: ParsedArguments) throws {
        root = try arguments.requiredValue("root")
        host = arguments.value("host") ?? "127.0.0.1"
        port = try Self.integer(arguments.value("port") ?? "8080", option: "--port <port>", range: 0...65535)
        tokenFile = arguments.value("token-file")
        stateFolder = arguments.value("state-dir")
        siteURL = arguments.value("site-url")
        maximumUploadBytes = try Self.integer(
            arguments.value("max-upload-bytes") ?? "5242880", option: "--max-upload-bytes <n>",
            range: 1...Int(Int32.max))
        isQuiet = arguments.flag("quiet")
        authFailures = try Self.integer(
            arguments.value("auth-failures") ?? "20", option: "--auth-failures <n>", range: 0...1_000_000)
        metrics = try MetricsAddressOption(parsing: arguments)
        logFormat = LogFormatOption(parsing: arguments)
        limits = try ClientLimitOptions(parsing: arguments)
    }

    func validate() throws {
        guard HTTPDaemon.isListenableHost(host) else {
            throw CLIError.invalidValue(
                value: host, option: "--host <host>",
                reason: "Give a numeric IP address of this machine, such as 127.0.0.1, 0.0.0.0 or ::1, or 'localhost'.")
        }
        if let siteURL {
            guard let url = URL(string: siteURL), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil, url.query == nil
            else {
                throw CLIError.invalidValue(
                    value: siteURL, option: "--site-url <url>",
                    reason: "Give an absolute http:// or https:// URL without a query, e.g. https://social.example.org."
                )
            }
        }
    }

    func run(in context: CommandContext) async throws {
        var configuration = FeedNode.Configuration(root: root)
        configuration.host = host
        configuration.port = port
        configuration.tokenFile = tokenFile
        configuration.stateFolder = stateFolder
        configuration.siteURL = siteURL
        configuration.maximumUploadBytes = maximumUploadBytes
        configuration.clientLimits = try limits.clientLimits()
        configuration.signupRate = try limits.hourlyRate(default: 10)
        configuration.authFailureRate =
            authFailures > 0 ? TokenBucket.Rate(requests: authFailures, per: .seconds(600)) : nil
        configuration.metricsAddress = try metrics.resolved(variable: nil, environment: context.environment)

        let errorOutput = SerializedOutput(
            context.writeStandardError, format: try logFormat.resolved(variable: nil, environment: context.environment))
        var accessLog: (@Sendable (AccessLogEntry) -> Void)?
        if !isQuiet {
            accessLog = { entry in errorOutput.line(entry.line) }
        }
        let node = try FeedNode(
            configuration: configuration,
            accessLog: accessLog,
            log: { message in errorOutput.line("serve: \(message)") })
        // Signals are taken over only once the node runs (so that a failed start leaves the process as it
        // was), and before the start-up line, which tells scripts that SIGTERM now stops it gracefully.
        let signals = TerminationSignals()
        defer { signals.restore() }
        // A reload (`systemctl reload`) must not stop the node, as SIGHUP's default would.
        let hangUps = TerminationSignals([SIGHUP]) { _ in
            errorOutput.line(
                "serve: SIGHUP; the token file \(node.tokenFilePath) is read again whenever it changes, nothing "
                    + "else to reload")
        }
        defer { hangUps.restore() }
        for path in node.sweptTemporaryFiles {
            errorOutput.line("serve: removed \(path), left by an interrupted upload")
        }
        errorOutput.line(
            "serve: listening on \(Self.listenURL(host: host, port: node.port)) (root \(node.rootPath); site URL "
                + "\(node.siteURL); tokens \(node.tokenFilePath))")
        if let metricsPort = node.metricsPort, let address = configuration.metricsAddress {
            errorOutput.line("serve: metrics on \(Self.listenURL(host: address.host, port: metricsPort))/metrics")
        }

        if let number = await signals.next() {
            errorOutput.line("serve: stopping (signal \(number)); requests in flight get 5 seconds")
        }
        await node.stop(gracePeriod: .seconds(5))
        errorOutput.line("serve: stopped")
    }

    /// `http://127.0.0.1:8080`, with IPv6 hosts in brackets.
    static func listenURL(host: String, port: Int) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// Parses an integer option within `range`.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` (a usage error).
    static func integer(_ text: String, option: String, range: ClosedRange<Int>) throws -> Int {
        try SettingResolver.value(text, from: .option(option), as: .integer(range))
    }
}

/// Standard error shared by the server's threads: one whole log line at a time, in the `--log-format`.
///
/// `@unchecked Sendable`: the wrapped closure is only ever called with the lock held, so calls never
/// overlap, and while the server runs the command writes only through this object too.
final class SerializedOutput: @unchecked Sendable {
    private let lock = Mutex(())
    private let write: ([UInt8]) -> Void
    private let format: LogFormat

    /// Makes the output.
    /// - Parameters:
    ///   - write: Writes bytes to standard error.
    ///   - format: How each line is written.
    init(_ write: @escaping ([UInt8]) -> Void, format: LogFormat = .text) {
        self.write = write
        self.format = format
    }

    /// Writes the log line of `text`, in the output's format, and a line break.
    func line(_ text: String) {
        let line = format.line(for: text, at: Date())
        lock.withLock { _ in write(Array((line + "\n").utf8)) }
    }
}
