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
    /// waits for it to end, or on standard output when there is no pager. A pager that cannot run (not
    /// found or not executable, which the shell answers with status 127 or 126) or that fails (any other
    /// exit status but 0, as `PAGER=false` gives) never loses the text: it is written to standard output,
    /// after a warning on standard error. A pager ended by a signal (Ctrl-C) is taken as the reader's choice.
    /// - Parameters:
    ///   - text: the output.
    ///   - context: the streams and environment.
    func show(_ text: String, in context: CommandContext) {
        show(StyledText(text), in: context)
    }

    /// Shows styled text as the text version does, rendered (``StyledText/rendered``, every
    /// control character of its runs made visible), so what the pager gets is as safe as standard output.
    /// - Parameters:
    ///   - text: the output.
    ///   - context: the streams and environment.
    func show(_ text: StyledText, in context: CommandContext) {
        guard let command = command(in: context) else {
            context.write(text)
            return
        }
        guard Self.canRun(command, path: context.environment["PATH"]) else {
            Self.fallBack(to: text, command: command, reason: "it was not found or is not executable", in: context)
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
            Self.fallBack(to: text, command: command, reason: "it could not start (\(error))", in: context)
            return
        }
        // A pager that quits early (q in less) closes the pipe: the rest is not wanted. One that ended before
        // reading (PAGER=false) must not end this process with SIGPIPE either: the write fails with EPIPE
        // instead, and the exit status below says what happened.
        let previousAction = signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(text.rendered.utf8))
        try? input.fileHandleForWriting.close()
        signal(SIGPIPE, previousAction)
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus != 0 else { return }
        let status = process.terminationStatus
        Self.fallBack(
            to: text, command: command,
            reason: [126, 127].contains(status)
                ? "the shell could not run it (exit status \(status))" : "it failed (exit status \(status))",
            in: context)
    }

    /// Writes `text` to standard output after a warning that the pager `command` could not be used.
    private static func fallBack(to text: StyledText, command: String, reason: String, in context: CommandContext) {
        context.report(
            "warning: the pager '\(command)' could not be used: \(reason). Showing the output without it; set "
                + "PAGER to a pager that works (or to 'cat'), or give --no-pager.")
        context.write(text)
    }

    /// Whether a pager command can run, as far as can be told without running it: a simple command (no shell
    /// syntax) whose program is an executable file, given with a `/` or found in `path`. A command with
    /// shell syntax is left for the shell to try.
    static func canRun(_ command: String, path: String?) -> Bool {
        let shellSyntax = CharacterSet(charactersIn: "|&;<>()$`\\\"'*?[]#~=%{}\n")
        guard command.rangeOfCharacter(from: shellSyntax) == nil,
            let program = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
        else { return true }
        return ExecutableSearch.path(of: program, searching: path) != nil
    }
}
