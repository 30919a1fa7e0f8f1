package import Foundation
package import HTTPClient
import OrgSocial
import OrgSocialText
import SystemSupport

/// What a command may touch outside itself: its standard streams, its environment, the clock and the
/// network.
///
/// ``process()`` is the real process; tests make a context whose closures capture output in memory, so
/// every command runs in process and its stdout, stderr and exit code can be checked. Commands reach
/// servers only through ``makeTransport``, and find the configuration file through ``environment`` only
/// (`ORGSOCIAL_CONFIG`, `XDG_CONFIG_HOME`, `HOME`), so tests point them at local servers and folders.
package struct CommandContext {
    /// The environment variables (`ORGSOCIAL_FEED_URL`, `ORGSOCIAL_NOW`, `TZ`, …).
    package var environment: [String: String]
    /// Reads all of standard input.
    package var readStandardInput: () throws -> [UInt8]
    /// Writes bytes to standard output.
    package var writeStandardOutput: ([UInt8]) -> Void
    /// Writes bytes to standard error.
    package var writeStandardError: ([UInt8]) -> Void
    /// Writes bytes to standard error even after Ctrl-C shut the command's output (``Interruption``), for
    /// the one line that says what an interrupted command left behind; ``writeStandardError`` unless set.
    package var writeInterruptionNotice: (([UInt8]) -> Void)?
    /// The current time, unless `ORGSOCIAL_NOW` overrides it.
    package var clock: () -> Date
    /// Makes the HTTP transport for commands that publish (called only when one is needed).
    package var makeTransport: () -> any HTTPTransport
    /// Waits, as `Task.sleep(for:)` does (tests pass one that moves their clock instead).
    package var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// Whether standard output is a terminal (colors in reading commands).
    package var isStandardOutputTerminal = false
    /// Whether standard error is a terminal (progress lines in reading commands).
    package var isStandardErrorTerminal = false
    /// Whether feeds are downloaded again rather than read through the cache (`--refresh`,
    /// ``RefreshOption``).
    var refreshesFeeds = false
    /// How long a request waits for a server that sends nothing (see ``ServerTimeout``).
    var serverTimeout: Duration = .seconds(ServerTimeout.defaultSeconds)

    /// Makes a context from its parts.
    /// - Parameters:
    ///   - environment: the environment variables.
    ///   - readStandardInput: reads all of standard input.
    ///   - writeStandardOutput: receives standard output.
    ///   - writeStandardError: receives standard error.
    ///   - clock: the current time.
    ///   - makeTransport: makes the HTTP transport; `CurlTransport` with `User-Agent: orgsocial/<version>` by
    ///     default.
    package init(
        environment: [String: String] = [:],
        readStandardInput: @escaping () throws -> [UInt8] = { [] },
        writeStandardOutput: @escaping ([UInt8]) -> Void,
        writeStandardError: @escaping ([UInt8]) -> Void,
        clock: @escaping () -> Date = { Date() },
        makeTransport: @escaping () -> any HTTPTransport = { CurlTransport(userAgent: CLI.userAgent) }
    ) {
        self.environment = environment
        self.readStandardInput = readStandardInput
        self.writeStandardOutput = writeStandardOutput
        self.writeStandardError = writeStandardError
        self.clock = clock
        self.makeTransport = makeTransport
    }

    /// The context of the running process: its real streams, environment and clock.
    package static func process() -> CommandContext {
        var context = CommandContext(
            environment: ProcessInfo.processInfo.environment,
            readStandardInput: { try Array(FileHandle.standardInput.readToEnd() ?? Data()) },
            // Straight from the bytes: a copy into `Data` would double the memory of `show --org` on a big feed.
            writeStandardOutput: { try? writeAll($0, to: STDOUT_FILENO, path: "standard output") },
            writeStandardError: { try? writeAll($0, to: STDERR_FILENO, path: "standard error") },
            clock: { Date() })
        context.isStandardOutputTerminal = isatty(STDOUT_FILENO) == 1
        context.isStandardErrorTerminal = isatty(STDERR_FILENO) == 1
        return context
    }

    /// Makes `timeout` the command's ``serverTimeout``, given to every request of its transports that
    /// has no timeout of its own.
    mutating func applyServerTimeout(_ timeout: Duration) {
        serverTimeout = timeout
        let makeBase = makeTransport
        makeTransport = { ServerTimeoutTransport(base: makeBase(), timeout: timeout) }
    }

    // MARK: - Output

    // Text written here holds text from elsewhere (feeds, relays, servers): every control character but
    // the line break and the tab is made visible on the way out (``TerminalText``), so no escape sequence
    // reaches a terminal but the colors of ``StyledText``. JSON is written through here too and is not
    // changed by it: ``JSONOutput`` escapes every control character.

    /// Writes human-readable text to standard output, every control character but line breaks and tabs
    /// made visible.
    func write(_ text: String) { writeStandardOutput(Array(TerminalText.block(text).utf8)) }

    /// Writes human-readable text with colors to standard output (see ``StyledText/rendered``).
    func write(_ text: StyledText) { writeStandardOutput(Array(text.rendered.utf8)) }

    /// Writes a document that must come out exactly (`show --org`, `show --html`) to standard output: as it
    /// is into a pipe or a file, with its control characters made visible on a terminal.
    func writeDocument(_ bytes: [UInt8]) {
        guard isStandardOutputTerminal else { return writeStandardOutput(bytes) }
        writeStandardOutput(Array(TerminalText.block(String(decoding: bytes, as: UTF8.self)).utf8))
    }

    /// Writes a line to standard output.
    func writeLine(_ text: String) { write(text + "\n") }

    /// Writes a line to standard error, every control character but line breaks and tabs made visible.
    func report(_ text: String) { writeStandardError(Array(TerminalText.block(text + "\n").utf8)) }

    /// Writes a line to standard error even when the command was interrupted and its output shut.
    func reportEvenIfInterrupted(_ text: String) {
        (writeInterruptionNotice ?? writeStandardError)(Array((text + "\n").utf8))
    }

    // MARK: - Time

    /// The variable that fixes "now" (``now()``).
    static let nowVariable = "ORGSOCIAL_NOW"

    /// "Now": `ORGSOCIAL_NOW` (a timestamp such as `2026-01-02T03:04:05+0000`) when set, else the clock.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` when `ORGSOCIAL_NOW` is not a timestamp.
    func now() throws -> Date {
        try SettingResolver(environment: environment).resolve(
            option: nil, variable: Self.nowVariable,
            as: SettingResolver.Format(expected: "a timestamp such as 2026-01-02T03:04:05+0000") {
                OrgTimestamp($0).instant
            })?.value ?? clock()
    }

    /// The zone new post IDs are written in: `TZ` from the environment when it names a zone, else the
    /// system's.
    var timeZone: TimeZone {
        if var name = environment["TZ"], !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = TimeZone(identifier: name) { return zone }
        }
        return TimeZone.current
    }

    // MARK: - Input

    /// Reads standard input as text (invalid UTF-8 becomes U+FFFD).
    func readStandardInputText() throws -> String {
        let bytes: [UInt8]
        do {
            bytes = try readStandardInput()
        } catch {
            throw CLIError.cannotRead(
                path: "-", reason: "\(CLIError.clause(error.localizedDescription)). Pass the text directly instead.")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
