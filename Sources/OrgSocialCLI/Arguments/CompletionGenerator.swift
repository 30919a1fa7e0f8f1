import Foundation

/// Writes shell completion scripts for bash, zsh and fish from the command tree: the same
/// ``CommandConfiguration`` values that ``HelpGenerator`` turns into `--help`, so a new command or
/// option completes as soon as it is defined.
///
/// Every script finds the command being typed by walking the words typed so far through the
/// subcommand names, counting the positional values typed after it (words that are neither options nor
/// an option's value), then offers that command's subcommands, or its options (after a `-`), or the
/// values of the option just typed, or those of the positional argument at that position, as their
/// definitions' ``ValueCompletion`` says: the allowed values (the configuration keys after
/// `config get`, the shells after `completion`), file names, or folder names (`serve --root`).
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
        /// Its positional arguments, in order.
        var arguments: [ArgumentDefinition] { configuration.arguments }

        /// The positional arguments that complete something, with the position pattern each answers:
        /// its index, or `*` for a repeating last argument.
        var completingArguments: [(position: String, completion: ValueCompletion)] {
            arguments.enumerated().compactMap { index, argument in
                argument.completion == .none ? nil : (argument.isRepeating ? "*" : "\(index)", argument.completion)
            }
        }
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
            nodes.append(Node(path: path, configuration: configuration, subcommands: subcommands, options: options))
            for subcommand in configuration.subcommands {
                visit(subcommand, path: path + " " + subcommand.configuration.name, isRoot: false)
            }
        }
        visit(root, path: CLI.name, isRoot: true)
        self.nodes = nodes
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

    /// The case branches that move `cmdpath` one subcommand down, restarting the count of positional
    /// values (shared by bash and zsh).
    private var pathSteps: String {
        nodes.flatMap { node in
            node.subcommands.filter { $0.name != "help" && $0.name != "version" }.map {
                "            \(Self.quoted("\(node.path):\($0.name)"))) "
                    + "cmdpath=\(Self.quoted("\(node.path) \($0.name)")); npos=0 ;;"
            }
        }.joined(separator: "\n")
    }

    /// `<command path>:<option word>` for every option that takes a value: the word after one is its
    /// value, not a positional value.
    private var valueOptionPatterns: [String] {
        nodes.flatMap { node in
            node.options.filter { !$0.isFlag }.flatMap(Self.optionWords).map { Self.quoted("\(node.path):\($0)") }
        }
    }

    /// The shell function (bash and zsh alike) that says whether `$2` is an option of command `$1` that
    /// takes a value.
    private var takesValueFunction: String {
        """
        _\(CLI.name)_takes_value() {
            case "$1:$2" in
                \(valueOptionPatterns.joined(separator: "|"))) return 0 ;;
            esac
            return 1
        }
        """
    }

    /// The bash reply for a value completion.
    private static func bashReply(_ completion: ValueCompletion) -> String {
        switch completion {
        case .none: "COMPREPLY=()"
        case .words(let words): "COMPREPLY=($(compgen -W \(quoted(words.joined(separator: " "))) -- \"$cur\"))"
        case .files: "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- \"$cur\"))"
        case .folders: "compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- \"$cur\"))"
        }
    }

    /// The zsh action for a value completion; `name` is shown when any text goes.
    private static func zshAction(_ completion: ValueCompletion, name: String) -> String {
        switch completion {
        case .none: "_message \(quoted(name))"
        case .words(let words): "compadd -- \(words.map { quoted($0) }.joined(separator: " "))"
        case .files: "_files"
        case .folders: "_files -/"
        }
    }

    /// The `case $npos in … esac` lines completing a node's positional arguments, each arm made by `arm`.
    private static func positionCases(
        _ node: Node, indent: String, arm: (ValueCompletion) -> String
    ) -> String {
        var lines = ["\(indent)case $npos in"]
        for (position, completion) in node.completingArguments {
            lines.append("\(indent)    \(position)) \(arm(completion)) ;;")
        }
        lines.append("\(indent)esac")
        return lines.joined(separator: "\n")
    }

    // MARK: - bash

    /// The bash script: a `complete -F` function over `COMP_WORDS`.
    var bash: String {
        var valueCases: [String] = []
        var commandCases: [String] = []
        for node in nodes {
            for option in node.options where !option.isFlag {
                let words = Self.optionWords(option).map { Self.quoted("\(node.path):\($0)") }
                valueCases.append(
                    "        \(words.joined(separator: "|"))) \(Self.bashReply(option.completion)); return ;;")
            }
            let optionWords = node.options.flatMap(Self.optionWords).joined(separator: " ")
            let words = node.subcommands.map(\.name).joined(separator: " ")
            var branch = "        \(Self.quoted(node.path)))\n"
            branch += "            if [[ $cur == -* ]]; then\n"
            branch += "                COMPREPLY=($(compgen -W \(Self.quoted(optionWords)) -- \"$cur\"))\n"
            if !words.isEmpty {
                branch += "            else\n"
                branch += "                COMPREPLY=($(compgen -W \(Self.quoted(words)) -- \"$cur\"))\n"
            } else if !node.completingArguments.isEmpty {
                branch += "            else\n"
                branch += Self.positionCases(node, indent: "                ", arm: Self.bashReply) + "\n"
            }
            branch += "            fi ;;"
            commandCases.append(branch)
        }
        return """
            # bash completion for \(CLI.name) (generated by '\(CLI.name) completion bash').
            # Load it with: source <(\(CLI.name) completion bash)

            \(takesValueFunction)

            _\(CLI.name)() {
                local cur="${COMP_WORDS[COMP_CWORD]}"
                local prev=""
                local cmdpath="\(CLI.name)"
                local npos=0
                local i
                (( COMP_CWORD > 0 )) && prev="${COMP_WORDS[COMP_CWORD-1]}"
                COMPREPLY=()
                for (( i = 1; i < COMP_CWORD; i++ )); do
                    case "$cmdpath:${COMP_WORDS[i]}" in
            \(pathSteps)
                        *)
                            if [[ ${COMP_WORDS[i]} != -* ]] && ! _\(CLI.name)_takes_value "$cmdpath" "${COMP_WORDS[i-1]}"; then
                                npos=$((npos + 1))
                            fi ;;
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
                let action = Self.zshAction(option.completion, name: option.valueName ?? "value")
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
            } else if !node.completingArguments.isEmpty {
                branch += "            else\n"
                branch +=
                    Self.positionCases(node, indent: "                ") { Self.zshAction($0, name: "value") } + "\n"
            }
            branch += "            fi ;;"
            commandCases.append(branch)
        }
        return """
            #compdef \(CLI.name)
            # zsh completion for \(CLI.name) (generated by '\(CLI.name) completion zsh').
            # Load it with: source <(\(CLI.name) completion zsh), or save it as _\(CLI.name) in your $fpath.

            \(takesValueFunction)

            _\(CLI.name)() {
                local cmdpath="\(CLI.name)"
                local prev="${words[CURRENT-1]}"
                local npos=0
                local i
                local -a opts cmds
                for (( i = 2; i < CURRENT; i++ )); do
                    case "$cmdpath:${words[i]}" in
            \(pathSteps)
                        *)
                            if [[ ${words[i]} != -* ]] && ! _\(CLI.name)_takes_value "$cmdpath" "${words[i-1]}"; then
                                npos=$((npos + 1))
                            fi ;;
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
        lines.append("function __\(CLI.name)_takes_value")
        lines.append("    switch \"$argv[1]:$argv[2]\"")
        lines.append("        case \(valueOptionPatterns.joined(separator: " "))")
        lines.append("            return 0")
        lines.append("    end")
        lines.append("    return 1")
        lines.append("end")
        lines.append("")
        // Prints the command typed and how many positional values follow it, one per line.
        lines.append("function __\(CLI.name)_walk")
        lines.append("    set -l tokens (commandline -opc)")
        lines.append("    set -l cmdpath \(CLI.name)")
        lines.append("    set -l npos 0")
        lines.append("    set -l previous \(CLI.name)")
        lines.append("    for token in $tokens[2..-1]")
        lines.append("        switch \"$cmdpath:$token\"")
        for node in nodes {
            for subcommand in node.subcommands where subcommand.name != "help" && subcommand.name != "version" {
                lines.append("            case \(Self.quoted("\(node.path):\(subcommand.name)"))")
                lines.append("                set cmdpath \(Self.quoted("\(node.path) \(subcommand.name)"))")
                lines.append("                set npos 0")
            }
        }
        lines.append("            case '*'")
        lines.append(
            "                if not string match -q -- '-*' $token; and not __\(CLI.name)_takes_value \"$cmdpath\" "
                + "\"$previous\"")
        lines.append("                    set npos (math $npos + 1)")
        lines.append("                end")
        lines.append("        end")
        lines.append("        set previous $token")
        lines.append("    end")
        lines.append("    echo $cmdpath")
        lines.append("    echo $npos")
        lines.append("end")
        lines.append("")
        lines.append("function __\(CLI.name)_command")
        lines.append("    set -l state (__\(CLI.name)_walk)")
        lines.append("    echo $state[1]")
        lines.append("end")
        lines.append("")
        lines.append("function __\(CLI.name)_position")
        lines.append("    set -l state (__\(CLI.name)_walk)")
        lines.append("    echo $state[2]")
        lines.append("end")
        lines.append("")
        lines.append("complete -c \(CLI.name) -f")
        for node in nodes {
            let test = "test (__\(CLI.name)_command) = \(Self.quoted(node.path, quote: "\""))"
            let condition = Self.quoted(test)
            for subcommand in node.subcommands {
                lines.append(
                    "complete -c \(CLI.name) -n \(condition) -a \(Self.quoted(subcommand.name)) -d "
                        + Self.quoted(Self.firstSentence(subcommand.abstract)))
            }
            for option in node.options {
                var line = "complete -c \(CLI.name) -n \(condition) -l \(option.name)"
                for alias in option.aliases { line += " -l \(alias)" }
                if let short = option.shortName { line += " -s \(short)" }
                if !option.isFlag { line += " " + Self.fishValues(option.completion) }
                line += " -d " + Self.quoted(Self.firstSentence(option.help))
                lines.append(line)
            }
            guard node.subcommands.isEmpty else { continue }
            for (index, argument) in node.arguments.enumerated() where argument.completion != .none {
                let position = "test (__\(CLI.name)_position) \(argument.isRepeating ? "-ge" : "-eq") \(index)"
                lines.append(
                    "complete -c \(CLI.name) -n \(Self.quoted(test + "; and " + position)) "
                        + Self.fishValues(argument.completion, ofOption: false))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `complete` arguments that offer a value completion in fish, for an option's value (which the
    /// option requires: `-r`, and `-x` where no file names go) or a positional value.
    private static func fishValues(_ completion: ValueCompletion, ofOption: Bool = true) -> String {
        let exclusive = ofOption ? "-x " : ""
        return switch completion {
        case .none: ofOption ? "-x" : ""
        case .words(let words): exclusive + "-a \(quoted(words.joined(separator: " ")))"
        case .files: ofOption ? "-r -F" : "-F"
        case .folders: exclusive + "-a \(quoted("(__fish_complete_directories (commandline -ct))"))"
        }
    }

    // MARK: - Helpers

    /// `--name`, its aliases and `-n`, as typed.
    private static func optionWords(_ option: OptionDefinition) -> [String] {
        option.longForms + (option.shortName.map { ["-\($0)"] } ?? [])
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
