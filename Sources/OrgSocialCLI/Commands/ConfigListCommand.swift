/// `orgsocial config list [--json]`: every setting, its value and where it comes from.
struct ConfigListCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "list",
            abstract: "List every setting with its value and where it comes from (env, file or default).",
            discussion: "Secrets (publish.token, publish.vfile) are shown as (hidden).",
            options: [.flag("json", help: "Print the settings as JSON.")])
    }

    /// `--json`.
    var printsJSON: Bool

    init(parsing arguments: ParsedArguments) throws {
        printsJSON = arguments.flag("json")
    }

    /// One row of the JSON output.
    struct Setting: Encodable {
        /// The key.
        var key: String
        /// The value in effect (`(hidden)` for secrets), or `null`.
        var value: String?
        /// `env`, `file`, `default`, or `null` when unset.
        var source: String?
        /// The environment variable that overrides the file, if any.
        var environment: String?

        /// Writes every field, `null` included, so the shape is the same for every key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(value, forKey: .value)
            try container.encode(source, forKey: .source)
            try container.encode(environment, forKey: .environment)
        }

        /// The JSON keys.
        enum CodingKeys: String, CodingKey {
            case key, value, source, environment
        }
    }

    func run(in context: CommandContext) throws {
        let file = ConfigurationFile(environment: context.environment)
        let configuration = try file?.load() ?? Configuration()
        let settings = try ConfigurationKey.all.map { key in
            let effective = try key.effectiveValue(in: configuration, environment: context.environment)
            return Setting(
                key: key.name, value: effective.map { key.isSecret ? "(hidden)" : $0.value },
                source: effective.map { Self.sourceName($0.source) }, environment: key.environmentName)
        }
        if printsJSON {
            struct Output: Encodable {
                var path: String?
                var settings: [Setting]
            }
            context.write(try JSONOutput.text(Output(path: file?.path, settings: settings)))
            return
        }
        let width = (settings.map(\.key.count).max() ?? 0) + 2
        var text = "# \(file?.path ?? "no configuration file (set HOME or XDG_CONFIG_HOME)")\n"
        for setting in settings {
            let padding = String(repeating: " ", count: width - setting.key.count)
            if let value = setting.value, let source = setting.source {
                let origin = source == "env" ? "env \(setting.environment ?? "")" : source
                text += "\(setting.key)\(padding)\(value)  (\(origin))\n"
            } else {
                text += "\(setting.key)\(padding)-\n"
            }
        }
        context.write(text)
    }

    /// How `config list` names where a value comes from: `env`, `file` or `default`.
    /// - Parameter source: where the value comes from.
    /// - Returns: the name.
    static func sourceName(_ source: SettingResolver.Source) -> String {
        switch source {
        case .environment: "env"
        case .configuration: "file"
        case .option, .default: "default"
        }
    }
}
