import Foundation
import TestSupport
import Testing

@testable import OrgSocialCLI

/// `orgsocial completion bash|zsh|fish`: scripts generated from the command definitions, checked by the
/// shells themselves (zsh and fish only where they are installed).
struct CompletionTests {
    /// The path of a shell, if installed.
    static func shell(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs `shell` with `arguments` and returns its exit code and standard output.
    private func run(_ shell: String, _ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: shell)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// The script for `shell`, written to a temporary file.
    private func script(_ shell: String, in folder: TemporaryFolder) async throws -> String {
        let result = await runCLI(["completion", shell])
        #expect(result.status == 0)
        return try folder.write(result.output, to: "completion.\(shell)")
    }

    /// What the bash completion function offers for the words typed (the last one being completed).
    private func bashCompletions(_ words: [String], script: String) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            source '\(script)'
            COMP_WORDS=(\(quoted))
            COMP_CWORD=\(words.count - 1)
            _orgsocial
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try run("/bin/bash", ["-c", program])
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func theBashScriptParsesAndCompletesCommandsOptionsAndValues() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("bash", in: folder)
        #expect(try run("/bin/bash", ["-n", path]).status == 0)
        #expect(try bashCompletions(["orgsocial", "pu"], script: path) == ["publish"])
        #expect(try bashCompletions(["orgsocial", "sy"], script: path) == ["sync"])
        #expect(try bashCompletions(["orgsocial", "post", "--fi"], script: path) == ["--file"])
        #expect(try bashCompletions(["orgsocial", "group", "j"], script: path) == ["join"])
        #expect(try bashCompletions(["orgsocial", "group", "join", "--"], script: path).contains("--file"))
        #expect(try bashCompletions(["orgsocial", "post", "--visibility", ""], script: path) == ["public", "mention"])
        #expect(try bashCompletions(["orgsocial", "completion", ""], script: path).isEmpty)
        let options = try bashCompletions(["orgsocial", "sync", "--"], script: path)
        #expect(options.contains("--ours") && options.contains("--theirs") && options.contains("--help"))
    }

    @Test func everyCommandAndOptionOfTheHelpIsInTheScripts() async throws {
        // Walk the same definitions as --help: every subcommand and every long option.
        var words: Set<String> = []
        func visit(_ command: any ParsableCommand.Type) {
            for option in command.configuration.options { words.insert(option.longForm.dropFirst(2).description) }
            for subcommand in command.configuration.subcommands {
                words.insert(subcommand.configuration.name)
                visit(subcommand)
            }
        }
        visit(RootCommand.self)
        #expect(words.contains("sync") && words.contains("merge") && words.contains("no-pager"))
        for shell in ["bash", "zsh", "fish"] {
            let result = await runCLI(["completion", shell])
            #expect(result.status == 0)
            for word in words.sorted() { #expect(result.output.contains(word), "\(shell): \(word)") }
        }
        let unknown = await runCLI(["completion", "tcsh"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("'tcsh' is invalid for '<shell>'"))
    }

    @Test(.enabled(if: shell("zsh") != nil)) func theZshScriptParses() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("zsh", in: folder)
        let result = try run(try #require(Self.shell("zsh")), ["-n", path])
        #expect(result.status == 0, "\(result.error)")
    }

    @Test(.enabled(if: shell("fish") != nil)) func theFishScriptParses() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("fish", in: folder)
        let fish = try #require(Self.shell("fish"))
        let result = try run(fish, ["-n", path])
        #expect(result.status == 0, "\(result.error)")
        let command = try run(fish, ["-c", "source '\(path)'; complete -C 'orgsocial pu'"])
        #expect(command.output.hasPrefix("publish\t"))
        let values = try run(fish, ["-c", "source '\(path)'; complete -C 'orgsocial post --visibility '"])
        #expect(values.output.split(separator: "\n").map { $0.prefix { $0 != "\t" } } == ["mention", "public"])
    }
}
