import Foundation

/// Long output through a pager, as `git log` does: `$PAGER` (else `less -FRX`, which quits at once when
/// the text fits on one screen and keeps colors) when standard output is a terminal, else straight to
/// standard output.
struct Pager {
    /// The pager used when `PAGER` is unset.
    static let defaultCommand = "less -FRX"

    /// Whether `--no-pager` was given.
    var isDisabled: Bool

    /// The pager command for a context, or `nil` when the text goes straight to standard output: not a
    /// terminal, `--no-pager`, or `PAGER` set to empty or `cat`.
    func command(in context: CommandContext) -> String? {
        guard context.isStandardOutputTerminal, !isDisabled else { return nil }
        let command = (context.environment["PAGER"] ?? Self.defaultCommand).trimmingCharacters(in: .whitespaces)
        return command.isEmpty || command == "cat" ? nil : command
    }

    /// Shows `text`: through the pager (run with `/bin/sh -c`, on the process's own standard output) and
    /// waits for it to end, or on standard output when there is no pager or it cannot start.
    /// - Parameters:
    ///   - text: the output.
    ///   - context: the streams and environment.
    func show(_ text: String, in context: CommandContext) {
        guard let command = command(in: context) else {
            context.write(text)
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = context.environment
        if environment["LESS"] == nil { environment["LESS"] = "FRX" }
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        do {
            try process.run()
        } catch {
            context.write(text)
            return
        }
        // A pager that quits early (q in less) closes the pipe: the rest is not wanted.
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
