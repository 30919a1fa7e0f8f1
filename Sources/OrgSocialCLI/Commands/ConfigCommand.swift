/// `orgsocial config`: reads and edits the configuration file.
struct ConfigCommand: CommandGroup {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            name: "config",
            abstract: "Show or change your settings (config.json).",
            discussion: """
                The file is $ORGSOCIAL_CONFIG, else $XDG_CONFIG_HOME/orgsocial/config.json, else \
                ~/.config/orgsocial/config.json (mode 0600). Environment variables override it. Keys: \
                \(ConfigurationKey.all.map(\.name).joined(separator: ", ")).
                """,
            subcommands: [
                ConfigGetCommand.self, ConfigSetCommand.self, ConfigUnsetCommand.self, ConfigAddCommand.self,
                ConfigRemoveCommand.self, ConfigListCommand.self,
            ])
    }

    /// The `<key>` argument of the subcommands.
    static let keyArgument = ArgumentDefinition(
        name: "key", help: "The setting, e.g. relayURL, block or languages.",
        allowedValues: ConfigurationKey.all.map(\.name))
    /// The `<key>` argument of `add` and `remove`, which apply to list settings only.
    static let listKeyArgument = ArgumentDefinition(
        name: "key",
        help: "The list setting: " + ConfigurationKey.all.filter(\.isList).map(\.name).joined(separator: " or ") + ".",
        allowedValues: ConfigurationKey.all.filter(\.isList).map(\.name))

    /// The key called `name`.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` listing the keys when there is none.
    static func key(named name: String) throws -> ConfigurationKey {
        guard let key = ConfigurationKey.named(name) else {
            throw CLIError.invalidValue(
                value: name, option: "<key>",
                reason: "Give one of: \(ConfigurationKey.all.map(\.name).joined(separator: ", ")).")
        }
        return key
    }

    /// Notes on standard error that an environment variable hides the file's value of `key`.
    static func noteOverride(of key: ConfigurationKey, in context: CommandContext) {
        if let name = key.environmentName, SettingResolver(environment: context.environment).text(of: name) != nil {
            context.report("note: \(name) is set, so it overrides this setting until you unset it.")
        }
    }
}
