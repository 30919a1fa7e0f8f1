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
        let options = try bashCompletions(["orgsocial", "sync", "--"], script: path)
        #expect(options.contains("--ours") && options.contains("--theirs") && options.contains("--help"))
    }

    @Test func bashCompletesKeysShellsAndFoldersFromTheirDefinitions() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("bash", in: folder)
        _ = try folder.write("x", to: "tree/feeds-file")
        try FileManager.default.createDirectory(atPath: folder.path("tree/feeds"), withIntermediateDirectories: true)
        let keys = ConfigurationKey.all.map(\.name)

        for command in ["get", "set", "unset"] {
            #expect(try bashCompletions(["orgsocial", "config", command, ""], script: path) == keys, "\(command)")
        }
        #expect(try bashCompletions(["orgsocial", "config", "get", "rel"], script: path) == ["relayURL"])
        #expect(try bashCompletions(["orgsocial", "config", "add", ""], script: path) == ["languages", "block"])
        // The value after the key is free text: no key is offered again.
        #expect(try bashCompletions(["orgsocial", "config", "set", "relayURL", ""], script: path).isEmpty)
        #expect(try bashCompletions(["orgsocial", "completion", ""], script: path) == ["bash", "zsh", "fish"])
        #expect(try bashCompletions(["orgsocial", "completion", "z"], script: path) == ["zsh"])
        #expect(
            try bashCompletions(["orgsocial", "serve", "--root", folder.path("tree/fe")], script: path)
                == [folder.path("tree/feeds")])
        #expect(
            try bashCompletions(
                ["orgsocial", "serve", "--port", "0", "--root", folder.path("tree") + "/"], script: path)
                == [folder.path("tree/feeds")])
        // Files still complete where a file goes.
        #expect(
            try bashCompletions(["orgsocial", "post", "--file", folder.path("tree/feeds-")], script: path)
                == [folder.path("tree/feeds-file")])
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

    /// What the zsh completion function offers for the words typed (the last one being completed), with
    /// `compadd`, `_files` and `_describe` replaced by functions that print what they were given.
    private func zshCompletions(_ words: [String], script: String, in folder: String) throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = """
            cd '\(folder)'
            source '\(script)'
            compadd() { [[ $1 == -- ]] && shift; printf '%s\\n' "$@"; }
            _files() { print -r -- "_files $*"; }
            _describe() { :; }
            _message() { :; }
            words=(\(quoted))
            CURRENT=\(words.count)
            PREFIX='\(words.last ?? "")'
            _orgsocial
            """
        let result = try run(try #require(Self.shell("zsh")), ["-f", "-c", program])
        #expect(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: shell("zsh") != nil)) func zshCompletesKeysShellsAndFolders() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("zsh", in: folder)
        let keys = ConfigurationKey.all.map(\.name)

        #expect(try zshCompletions(["orgsocial", "config", "unset", ""], script: path, in: folder.path) == keys)
        #expect(try zshCompletions(["orgsocial", "config", "set", "file", ""], script: path, in: folder.path) == [])
        #expect(
            try zshCompletions(["orgsocial", "completion", ""], script: path, in: folder.path) == [
                "bash", "zsh", "fish",
            ]
        )
        #expect(
            try zshCompletions(["orgsocial", "serve", "--root", ""], script: path, in: folder.path) == ["_files -/"])
        #expect(try zshCompletions(["orgsocial", "post", "--file", ""], script: path, in: folder.path) == ["_files "])
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

    @Test(.enabled(if: shell("fish") != nil)) func fishCompletesKeysShellsAndFolders() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try await script("fish", in: folder)
        let fish = try #require(Self.shell("fish"))
        _ = try folder.write("x", to: "tree/feeds-file")
        try FileManager.default.createDirectory(atPath: folder.path("tree/feeds"), withIntermediateDirectories: true)
        func completions(_ line: String) throws -> [String] {
            let result = try run(fish, ["-c", "cd '\(folder.path)'; source '\(path)'; complete -C '\(line)'"])
            return result.output.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        }

        #expect(try completions("orgsocial config get ") == ConfigurationKey.all.map(\.name).sorted())
        #expect(try completions("orgsocial config set relayURL ") == [])
        #expect(try completions("orgsocial completion ") == ["bash", "fish", "zsh"])
        #expect(try completions("orgsocial serve --root tree/fe") == ["tree/feeds/"])
    }
}
