import Foundation

/// Writes shell completion scripts for bash, zsh and fish from the command tree: the same
/// ``CommandConfiguration`` values that ``HelpGenerator`` turns into `--help`, so a new command or
/// option completes as soon as it is defined.
///
/// Every script finds the command being typed by walking the words typed so far through the
/// subcommand names, then offers that command's subcommands, or its options (after a `-`), or the
/// values of the option just typed: the allowed values when there is a list, file names for options
/// whose value is a file, path or folder, and for commands that take a file argument.
struct CompletionGenerator {
    /// The shells a script can be written for.
    static let shells = ["bash", "zsh", "fish"]

    /// One command of the tree, flattened.
    struct Node {
        /// The words that lead to it, the tool first (`orgsocial group join`).
        var path: String
        /// The command's definition.
        var configuration: CommandConfiguration
        /// Its subcommand names with their abstracts (the root's include `help` and `version`).
        var subcommands: [(name: String, abstract: String)]
        /// Its options, `--help` (and for the root `--version`) included.
        var options: [OptionDefinition]
        /// Whether its positional arguments are files.
        var takesFiles: Bool
    }

    /// Every command of the tree, parents before children.
    let nodes: [Node]

    /// The generator for the tool's command tree.
    init(root: any ParsableCommand.Type = RootCommand.self) {
        var nodes: [Node] = []
        func visit(_ command: any ParsableCommand.Type, path: String, isRoot: Bool) {
            let configuration = command.configuration
            var subcommands = configuration.subcommands.map { ($0.configuration.name, $0.configuration.abstract) }
            var options = configuration.options
            if isRoot {
                subcommands.append((HelpCommand.configuration.name, HelpCommand.configuration.abstract))
                subcommands.append(("version", "Show the version."))
                options.append(.flag("version", short: "v", help: "Show the version."))
            }
            options.append(.flag("help", short: "h", help: "Show help information."))
            let takesFiles = configuration.arguments.contains { Self.isFileName($0.name) }
            nodes.append(
                Node(
                    path: path, configuration: configuration, subcommands: subcommands, options: options,
                    takesFiles: takesFiles))
            for subcommand in configuration.subcommands {
                visit(subcommand, path: path + " " + subcommand.configuration.name, isRoot: false)
            }
        }
        visit(root, path: CLI.name, isRoot: true)
        self.nodes = nodes
    }

    /// Whether a value or argument named so is a file name.
    static func isFileName(_ name: String) -> Bool {
        ["file", "files", "path", "dir"].contains(name)
    }

    /// The script for `shell`, or `nil` for a shell not in ``shells``.
    func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    /// The case branches that move `cmdpath` one subcommand down (shared by bash and zsh).
    private var pathSteps: String {
        nodes.flatMap { node in
            node.subcommands.filter { $0.name != "help" && $0.name != "version" }.map {
                "            \(Self.quoted("\(node.path):\($0.name)"))) cmdpath=\(Self.quoted("\(node.path) \($0.name)")) ;;"
            }
        }.joined(separator: "\n")
    }

    // MARK: - bash

    /// The bash script: a `complete -F` function over `COMP_WORDS`.
    var bash: String {
        var valueCases: [String] = []
        var commandCases: [String] = []
        for node in nodes {
            for option in node.options where !option.isFlag {
                let words = Self.optionWords(option).map { Self.quoted("\(node.path):\($0)") }
                let reply =
                    !option.allowedValues.isEmpty
                    ? "COMPREPLY=($(compgen -W \(Self.quoted(option.allowedValues.joined(separator: " "))) -- \"$cur\"))"
                    : Self.isFileName(option.valueName ?? "")
                        ? "COMPREPLY=($(compgen -f -- \"$cur\"))" : "COMPREPLY=()"
                valueCases.append("        \(words.joined(separator: "|"))) \(reply); return ;;")
            }
            let optionWords = node.options.flatMap(Self.optionWords).joined(separator: " ")
            let words = node.subcommands.map(\.name).joined(separator: " ")
            var branch = "        \(Self.quoted(node.path)))\n"
            branch += "            if [[ $cur == -* ]]; then\n"
            branch += "                COMPREPLY=($(compgen -W \(Self.quoted(optionWords)) -- \"$cur\"))\n"
            if !words.isEmpty {
                branch += "            else\n"
                branch += "                COMPREPLY=($(compgen -W \(Self.quoted(words)) -- \"$cur\"))\n"
            } else if node.takesFiles {
                branch += "            else\n"
                branch += "                COMPREPLY=($(compgen -f -- \"$cur\"))\n"
            }
            branch += "            fi ;;"
            commandCases.append(branch)
        }
        return """
            # bash completion for \(CLI.name) (generated by '\(CLI.name) completion bash').
            # Load it with: source <(\(CLI.name) completion bash)

            _\(CLI.name)() {
                local cur="${COMP_WORDS[COMP_CWORD]}"
                local prev=""
                local cmdpath="\(CLI.name)"
                local i
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                COMPREPLY=()
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    case "$cmdpath:${COMP_WORDS[i]}" in
            \(pathSteps)
                    esac
                done
                case "$cmdpath:$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                case "$cmdpath" in
            \(commandCases.joined(separator: "\n"))
                esac
            }
            complete -o default -F _\(CLI.name) \(CLI.name)

            """
    }

    // MARK: - zsh

    /// The zsh script: a `compdef` function over `words` and `CURRENT`, with descriptions.
    var zsh: String {
        var valueCases: [String] = []
        var commandCases: [String] = []
        for node in nodes {
            for option in node.options where !option.isFlag {
                let words = Self.optionWords(option).map { Self.quoted("\(node.path):\($0)") }
                let action =
                    !option.allowedValues.isEmpty
                    ? "compadd -- \(option.allowedValues.map { Self.quoted($0) }.joined(separator: " "))"
                    : Self.isFileName(option.valueName ?? "")
                        ? "_files" : "_message \(Self.quoted(option.valueName ?? "value"))"
                valueCases.append("        \(words.joined(separator: "|"))) \(action); return ;;")
            }
            let options = node.options.flatMap { option in
                Self.optionWords(option).map { Self.quoted(Self.zshItem($0, option.help)) }
            }
            let subcommands = node.subcommands.map { Self.quoted(Self.zshItem($0.name, $0.abstract)) }
            var branch = "        \(Self.quoted(node.path)))\n"
            branch += "            opts=(\(options.joined(separator: " ")))\n"
            branch += "            if [[ $PREFIX == -* ]]; then\n"
            branch += "                _describe -t options option opts\n"
            if !subcommands.isEmpty {
                branch += "            else\n"
                branch += "                cmds=(\(subcommands.joined(separator: " ")))\n"
                branch += "                _describe -t commands command cmds\n"
            } else if node.takesFiles {
                branch += "            else\n"
                branch += "                _files\n"
            }
            branch += "            fi ;;"
            commandCases.append(branch)
        }
        return """
            #compdef \(CLI.name)
            # zsh completion for \(CLI.name) (generated by '\(CLI.name) completion zsh').
            # Load it with: source <(\(CLI.name) completion zsh), or save it as _\(CLI.name) in your $fpath.

            _\(CLI.name)() {
                local cmdpath="\(CLI.name)"
                local prev="${words[CURRENT-1]}"
                local i
                local -a opts cmds
                for (( i = 2; i < CURRENT; i++ )); do
                    case "$cmdpath:${words[i]}" in
            \(pathSteps)
                    esac
                done
                case "$cmdpath:$prev" in
            \(valueCases.joined(separator: "\n"))
                esac
                case "$cmdpath" in
            \(commandCases.joined(separator: "\n"))
                esac
            }
            if (( $+functions[compdef] )); then
                compdef _\(CLI.name) \(CLI.name)
            fi

            """
    }

    /// `name:description` for `_describe`, colons in the name escaped.
    private static func zshItem(_ name: String, _ description: String) -> String {
        name.replacingOccurrences(of: ":", with: "\\:") + ":" + firstSentence(description)
    }

    // MARK: - fish

    /// The fish script: a function that finds the command typed, and one `complete` line per
    /// subcommand and option.
    var fish: String {
        var lines: [String] = []
        lines.append("# fish completion for \(CLI.name) (generated by '\(CLI.name) completion fish').")
        lines.append("# Load it with: \(CLI.name) completion fish | source")
        lines.append("")
        lines.append("function __\(CLI.name)_command")
        lines.append("    set -l tokens (commandline -opc)")
        lines.append("    set -l cmdpath \(CLI.name)")
        lines.append("    for token in $tokens[2..-1]")
        lines.append("        switch \"$cmdpath:$token\"")
        for node in nodes {
            for subcommand in node.subcommands where subcommand.name != "help" && subcommand.name != "version" {
                lines.append("            case \(Self.quoted("\(node.path):\(subcommand.name)"))")
                lines.append("                set cmdpath \(Self.quoted("\(node.path) \(subcommand.name)"))")
            }
        }
        lines.append("        end")
        lines.append("    end")
        lines.append("    echo $cmdpath")
        lines.append("end")
        lines.append("")
        lines.append("complete -c \(CLI.name) -f")
        for node in nodes {
            let condition = Self.quoted("test (__\(CLI.name)_command) = \(Self.quoted(node.path, quote: "\""))")
            for subcommand in node.subcommands {
                lines.append(
                    "complete -c \(CLI.name) -n \(condition) -a \(Self.quoted(subcommand.name)) -d "
                        + Self.quoted(Self.firstSentence(subcommand.abstract)))
            }
            for option in node.options {
                var line = "complete -c \(CLI.name) -n \(condition) -l \(option.name)"
                if let short = option.shortName { line += " -s \(short)" }
                if !option.isFlag {
                    if !option.allowedValues.isEmpty {
                        line += " -x -a \(Self.quoted(option.allowedValues.joined(separator: " ")))"
                    } else if Self.isFileName(option.valueName ?? "") {
                        line += " -r -F"
                    } else {
                        line += " -x"
                    }
                }
                line += " -d " + Self.quoted(Self.firstSentence(option.help))
                lines.append(line)
            }
            if node.takesFiles, node.subcommands.isEmpty {
                lines.append("complete -c \(CLI.name) -n \(condition) -F")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Helpers

    /// `--name` and `-n`, as typed.
    private static func optionWords(_ option: OptionDefinition) -> [String] {
        [option.longForm] + (option.shortName.map { ["-\($0)"] } ?? [])
    }

    /// The first sentence of a help text (shells show one line).
    private static func firstSentence(_ text: String) -> String {
        let line = text.split(separator: "\n").first.map(String.init) ?? text
        if let end = line.range(of: ". ") { return String(line[..<end.lowerBound]) }
        return line.hasSuffix(".") ? String(line.dropLast()) : line
    }

    /// `text` in single quotes (or `quote`), safe for bash, zsh and fish.
    private static func quoted(_ text: String, quote: Character = "'") -> String {
        if quote == "\"" {
            let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "$", with: "\\$")
            return "\"\(escaped)\""
        }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
