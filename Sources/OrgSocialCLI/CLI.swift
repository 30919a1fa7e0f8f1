import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `orgsocial` command-line tool: finds the subcommand, parses, validates and runs it, and turns
/// failures into messages and exit codes (see docs/STYLE.md, house rule 17).
///
/// ```swift
/// let status = await CLI.run(["check", "social.org"], context: .process())
/// ```
package enum CLI {
    /// The tool's name, as shown in usage lines.
    package static let name = "orgsocial"
    /// The tool's version, printed by `orgsocial --version`.
    package static let version = "0.1.0"

    /// Runs the tool in the real process and exits with its status. `main.swift` calls this.
    ///
    /// SIGINT and SIGTERM interrupt every command but the servers (see ``Interruption``): exit status 130.
    package static func main() async -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        var context = CommandContext.process()
        if command(for: arguments).configuration.handlesTerminationSignals {
            exit(await run(arguments, context: context))
        }
        let gate = OutputGate()
        let writeOutput = context.writeStandardOutput
        let writeError = context.writeStandardError
        context.writeStandardOutput = { bytes in gate.pass { writeOutput(bytes) } }
        context.writeStandardError = { bytes in gate.pass { writeError(bytes) } }
        context.writeInterruptionNotice = writeError
        let interruptible = context
        let status = await Interruption.run(shutting: gate) { await run(arguments, context: interruptible) }
        exit(status)
    }

    /// The command `arguments` name (the deepest group when they name no further subcommand).
    static func command(for arguments: [String]) -> any ParsableCommand.Type {
        var command: any ParsableCommand.Type = RootCommand.self
        var rest = arguments[...]
        while command.configuration.isGroup, let token = rest.first,
            let subcommand = command.configuration.subcommand(named: token)
        {
            command = subcommand
            rest = rest.dropFirst()
        }
        return command
    }

    /// Runs the tool with `arguments` (without the program name).
    ///
    /// Exit codes: 0 success (also help and version), 1 runtime failure, 2 usage error.
    /// - Parameters:
    ///   - arguments: the command-line tokens after `orgsocial`.
    ///   - context: the streams, environment and clock to use.
    /// - Returns: the exit code.
    package static func run(_ arguments: [String], context: CommandContext) async -> Int32 {
        var path = [name]
        var command: any ParsableCommand.Type = RootCommand.self
        var rest = arguments[...]

        // Walk down the command tree.
        while command.configuration.isGroup {
            if command.configuration.runsWithoutSubcommand,
                rest.first.map({ command.configuration.subcommand(named: $0) == nil }) ?? true
            {
                break
            }
            guard let token = rest.first else {
                context.write(HelpGenerator(command: command, path: path).help)
                return 0
            }
            if token == "-h" || token == "--help" {
                context.write(HelpGenerator(command: command, path: path).help)
                return 0
            }
            if path.count == 1, ["--version", "-v", "version"].contains(token) {
                context.writeLine("\(name) \(version)")
                return 0
            }
            if path.count == 1, token == HelpCommand.configuration.name {
                path.append(token)
                command = HelpCommand.self
                rest = rest.dropFirst()
                break
            }
            if CommandLineParser.looksLikeOption(token) {
                let known = (path.count == 1 ? ["--version", "-v"] : []) + ["--help"]
                let error = CLIError.unknownOption(
                    token, suggestion: NameSuggester.suggestion(for: token, among: known))
                return reportUsageError(error, command: command, path: path, context: context)
            }
            guard let subcommand = command.configuration.subcommand(named: token) else {
                let names =
                    command.configuration.subcommands.map { $0.configuration.name }
                    + (path.count == 1 ? [HelpCommand.configuration.name, "version"] : [])
                let error = CLIError.unknownCommand(
                    token, suggestion: NameSuggester.suggestion(for: token, among: names))
                return reportUsageError(error, command: command, path: path, context: context)
            }
            path.append(token)
            command = subcommand
            rest = rest.dropFirst()
        }

        let tokens = Array(rest)
        let optionTokens = tokens.prefix { $0 != "--" }
        if optionTokens.contains("-h") || optionTokens.contains("--help") {
            context.write(HelpGenerator(command: command, path: path).help)
            return 0
        }

        return await command.execute(tokens: tokens, path: path, context: context)
    }

    /// Prints `Error: …`, the usage line and where to find help, on standard error; returns 2.
    static func reportUsageError(
        _ error: CLIError, command: any ParsableCommand.Type, path: [String], context: CommandContext
    ) -> Int32 {
        let generator = HelpGenerator(command: command, path: path)
        context.report("Error: \(error.localizedDescription)")
        context.report(generator.usage)
        context.report("  See '\(path.joined(separator: " ")) --help' for more information.")
        return error.exitCode
    }

    /// Prints `Error: …` on standard error (unless the command already reported it), with the tool's advice
    /// for a library error (``ErrorAdvice``); returns 1.
    static func reportFailure(_ error: any Error, context: CommandContext) -> Int32 {
        if let error = error as? CLIError {
            if case .exit(let code) = error { return code }
            context.report("Error: \(error.localizedDescription)")
            return error.exitCode
        }
        context.report("Error: \(ErrorAdvice.message(for: error))")
        return 1
    }
}

// MARK: - Running one command

extension ParsableCommand {
    /// Parses, validates and runs one command; returns the exit code.
    static func execute(tokens: [String], path: [String], context: CommandContext) async -> Int32 {
        let type = Self.self
        // Parse and validate: failures are usage errors.
        let command: Self
        var context = context
        do {
            let parsed = try CommandLineParser(configuration: type.configuration).parse(tokens)
            command = try Self(parsing: parsed)
            try command.validate()
            context.applyServerTimeout(try ServerTimeout.resolve(parsed, environment: context.environment))
            context.refreshesFeeds = parsed.flag(RefreshOption.option.name)
        } catch let error as CLIError where error.isUsageError {
            return CLI.reportUsageError(error, command: type, path: path, context: context)
        } catch {
            return CLI.reportFailure(error, context: context)
        }

        // Run: failures are runtime errors.
        do {
            try await command.run(in: context)
            return 0
        } catch let error as CLIError where error.isUsageError {
            return CLI.reportUsageError(error, command: type, path: path, context: context)
        } catch {
            return CLI.reportFailure(error, context: context)
        }
    }
}
