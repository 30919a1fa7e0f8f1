import Foundation

/// Prometheus's `promtool` (Debian's `prometheus` package), which tests run on the text our metrics
/// listeners serve and on the alert rules of the deployment kits.
package enum Promtool {
    /// Where it is installed, or `nil`: the first `promtool` on `PATH`, else `/usr/bin/promtool`.
    package static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/usr/bin"]).map { "\($0)/promtool" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }()

    /// Whether it is installed; tests that need it are disabled with a message otherwise.
    package static var isAvailable: Bool { path != nil }

    /// What one run printed and how it ended.
    package struct Result: Sendable {
        /// The exit status.
        package let status: Int32
        /// Standard output and standard error together.
        package let output: String
    }

    /// Runs `promtool check metrics` with `text` on its standard input.
    ///
    /// - Parameter text: The exposition text.
    /// - Returns: The status (0 when promtool accepts it, lint problems included) and the output.
    /// - Throws: ``RawConnection/Failure`` when promtool is missing or cannot be started.
    package static func checkMetrics(_ text: String) throws -> Result {
        try run(["check", "metrics"], input: Data(text.utf8))
    }

    /// Runs `promtool check rules FILE…`.
    ///
    /// - Parameter files: The rule files.
    /// - Returns: The status and the output.
    /// - Throws: ``RawConnection/Failure`` when promtool is missing or cannot be started.
    package static func checkRules(_ files: [String]) throws -> Result {
        try run(["check", "rules"] + files, input: nil)
    }

    /// Runs `promtool check config FILE` (which also checks the rule files it names).
    ///
    /// - Parameter file: The Prometheus configuration.
    /// - Returns: The status and the output.
    /// - Throws: ``RawConnection/Failure`` when promtool is missing or cannot be started.
    package static func checkConfig(_ file: String) throws -> Result {
        try run(["check", "config", file], input: nil)
    }

    private static func run(_ arguments: [String], input: Data?) throws -> Result {
        guard let path else { throw RawConnection.Failure(description: "promtool is not installed") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(input)
            try inputPipe.fileHandleForWriting.close()
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self))
    }
}
