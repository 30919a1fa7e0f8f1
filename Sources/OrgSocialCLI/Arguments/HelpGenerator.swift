import Foundation

/// Renders help text and usage lines in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS,
/// OPTIONS and SUBCOMMANDS sections, labels indented by two spaces, descriptions starting at column 26,
/// lines wrapped at 80 columns.
struct HelpGenerator {
    /// The command being described.
    let command: any ParsableCommand.Type
    /// The names leading to it, the tool first (`["orgsocial", "group", "join"]`).
    let path: [String]

    /// The column where descriptions start.
    static let labelColumnWidth = 26
    /// The width text is wrapped to.
    static let screenWidth = 80

    private var configuration: CommandConfiguration { command.configuration }
    private var isRoot: Bool { path.count == 1 }

    /// The full help text, ending with a line break.
    var help: String {
        var sections: [String] = []
        var overview = "OVERVIEW: " + configuration.abstract
        if let discussion = configuration.discussion {
            overview += "\n\n" + Self.wrapParagraphs(discussion, width: Self.screenWidth)
        }
        sections.append(overview)
        sections.append(Self.wrapUsage(prefix: "USAGE: ", usage: usageTokens))
        if !configuration.arguments.isEmpty {
            let rows = configuration.arguments.map { (label: $0.synopsis, text: $0.help) }
            sections.append("ARGUMENTS:\n" + Self.rows(rows))
        }
        var optionRows = configuration.options.map { (label: $0.helpLabel, text: $0.helpText) }
        if isRoot { optionRows.append((label: "-v, --version", text: "Show the version (also 'orgsocial version').")) }
        optionRows.append((label: "-h, --help", text: "Show help information."))
        sections.append("OPTIONS:\n" + Self.rows(optionRows))
        if configuration.isGroup {
            let rows = configuration.subcommands.map {
                (label: $0.configuration.name, text: $0.configuration.abstract)
            }
            let helpPath = ([path[0], "help"] + path.dropFirst()).joined(separator: " ")
            sections.append(
                "SUBCOMMANDS:\n" + Self.rows(rows) + "\n\n  See '\(helpPath) <subcommand>' for detailed help.")
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage line as shown after `Error:` messages: `Usage: orgsocial post --file <file> …`.
    var usage: String { Self.wrapUsage(prefix: "Usage: ", usage: usageTokens) }

    /// The command path followed by one token per option and argument (kept whole when wrapping).
    private var usageTokens: [String] { Self.usageTokens(path: path, of: configuration) }

    /// The usage tokens of a command: its path, then `<subcommand>` for a group, else one token per
    /// option and argument (`[--lang <lang>]`, `<file>`). The man pages' SYNOPSIS uses them too.
    static func usageTokens(path: [String], of configuration: CommandConfiguration) -> [String] {
        var tokens = [path.joined(separator: " ")]
        if configuration.isGroup, !configuration.runsWithoutSubcommand {
            tokens.append("<subcommand>")
        } else {
            for option in configuration.options {
                let token = option.usageFamily ?? option.usage
                if option.usageFamily == nil || !tokens.contains(token) { tokens.append(token) }
            }
            tokens += configuration.arguments.map(\.usage)
        }
        return tokens
    }

    // MARK: - Layout

    /// Two-column rows: label at column 2, text at column 26 (on the next line when the label is long).
    static func rows(_ rows: [(label: String, text: String)]) -> String {
        let indent = String(repeating: " ", count: labelColumnWidth)
        return rows.map { row in
            let wrapped = wrap(row.text, width: screenWidth - labelColumnWidth)
            let label = "  " + row.label
            var lines: [String] = []
            if label.count + 2 <= labelColumnWidth, let first = wrapped.first {
                lines.append(label + String(repeating: " ", count: labelColumnWidth - label.count) + first)
                lines += wrapped.dropFirst().map { indent + $0 }
            } else {
                lines.append(label)
                lines += wrapped.map { indent + $0 }
            }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Joins usage tokens into lines of at most 80 columns; later lines align under the first token
    /// after the command path.
    static func wrapUsage(prefix: String, usage tokens: [String]) -> String {
        guard let head = tokens.first else { return prefix }
        var lines: [String] = []
        var line = prefix + head
        let indent = String(repeating: " ", count: min(prefix.count + head.count + 1, 40))
        for token in tokens.dropFirst() {
            if line.count + 1 + token.count > screenWidth, line.count > indent.count {
                lines.append(line)
                line = indent + token
            } else {
                line += " " + token
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// Wraps each paragraph (separated by blank lines) at `width`; lines starting with spaces are kept.
    static func wrapParagraphs(_ text: String, width: Int) -> String {
        text.components(separatedBy: "\n\n").map { paragraph in
            paragraph.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
                line.hasPrefix(" ") ? [String(line)] : wrap(String(line), width: width)
            }.joined(separator: "\n")
        }.joined(separator: "\n\n")
    }

    /// Greedy word wrap; a word longer than `width` gets a line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if line.isEmpty {
                line = String(word)
            } else if line.count + 1 + word.count <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        return lines
    }
}
