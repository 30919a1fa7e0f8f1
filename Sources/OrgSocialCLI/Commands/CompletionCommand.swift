/// `orgsocial completion bash|zsh|fish`: prints a shell completion script (see ``CompletionGenerator``).
struct CompletionCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "completion",
            abstract: "Print a shell completion script (bash, zsh or fish).",
            discussion: """
                The script completes subcommands, options and their values (allowed values, file names), \
                generated from the same definitions as --help. Load it for the current shell:

                  bash:  source <(orgsocial completion bash)
                  zsh:   source <(orgsocial completion zsh)
                  fish:  orgsocial completion fish | source

                or save it where the shell loads completions (bash: \
                ~/.local/share/bash-completion/completions/orgsocial; zsh: a file named _orgsocial in a \
                folder of $fpath; fish: ~/.config/fish/completions/orgsocial.fish).
                """,
            arguments: [
                ArgumentDefinition(name: "shell", help: "bash, zsh or fish.", allowedValues: CompletionGenerator.shells)
            ])
    }

    /// The shell.
    var shell: String

    init(parsing arguments: ParsedArguments) throws {
        shell = try arguments.requiredArgument("shell")
    }

    func validate() throws {
        guard CompletionGenerator.shells.contains(shell) else {
            throw CLIError.invalidValue(
                value: shell, option: "<shell>",
                reason: "Please provide one of " + CompletionGenerator.shells.map { "'\($0)'" }.joined(separator: ", ")
                    + ".")
        }
    }

    func run(in context: CommandContext) throws {
        context.write(CompletionGenerator().script(for: shell) ?? "")
    }
}
