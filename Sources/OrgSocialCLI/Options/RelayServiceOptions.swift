import Foundation
import HTTPCore
import Relay
import RelayCore

/// The options the local relay commands share (`relay serve`, `scan`, `add-feed`, `stats --db`): the
/// database, the groups, the peer relay list and the private-address switch. Each falls back to an
/// environment variable (`ORGSOCIAL_RELAY_DB`, `ORGSOCIAL_RELAY_GROUPS`, `ORGSOCIAL_RELAY_LIST`,
/// `ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES`), so one settings file (`relay.env`, a systemd
/// `EnvironmentFile` and `set -a; . relay.env` in a shell) configures the service and the admin commands
/// alike.
struct RelayServiceOptions {
    /// `--db <path>`.
    static let databaseOption = OptionDefinition.value(
        "db", valueName: "path|url",
        help: "The relay's SQLite database, created when missing, or a postgres:// URL of a PostgreSQL database "
            + "that several relay processes share ($ORGSOCIAL_RELAY_DB).",
        defaultValue: "$XDG_DATA_HOME/orgsocial/relay.sqlite")
    /// `--groups <list>`.
    static let groupsOption = OptionDefinition.value(
        "groups", valueName: "list",
        help: "Comma-separated group names, e.g. \"Emacs,Org Social\" ($ORGSOCIAL_RELAY_GROUPS).",
        defaultValue: "none")
    /// `--relay-list <file>`.
    static let relayListOption = OptionDefinition.value(
        "relay-list", valueName: "file",
        help: "Peer relays whose feed lists are crawled, one URL per line ($ORGSOCIAL_RELAY_LIST).",
        defaultValue: "relay.org-social.org and orgs-relay.adsan.dev")
    /// `--allow-private-addresses`.
    static let privateAddressesOption = OptionDefinition.flag(
        "allow-private-addresses",
        help: "Also accept feeds on loopback, private and link-local addresses (tests, one-machine setups) "
            + "($\(privateAddressesVariable)=1).")
    /// `--log-format` of `relay serve` and `relay crawl`.
    static let logFormatOption = LogFormatOption.definition(variable: logFormatVariable)
    /// The variable of `--log-format`.
    static let logFormatVariable = "ORGSOCIAL_RELAY_LOG_FORMAT"
    /// The variable of `--db`.
    static let databaseVariable = "ORGSOCIAL_RELAY_DB"
    /// The variable of `--groups`.
    static let groupsVariable = "ORGSOCIAL_RELAY_GROUPS"
    /// The variable of `--relay-list`.
    static let relayListVariable = "ORGSOCIAL_RELAY_LIST"
    /// The variable of `--allow-private-addresses`.
    static let privateAddressesVariable = "ORGSOCIAL_RELAY_ALLOW_PRIVATE_ADDRESSES"

    /// `--db`, when given.
    var databasePath: String?
    /// `--groups`, when given.
    var groups: String?
    /// `--relay-list`, when given.
    var relayListPath: String?
    /// `--allow-private-addresses` (given on the command line; the variable is read by
    /// ``configuration(in:)``).
    var allowsPrivateAddresses: Bool
    /// `--log-format`, when given.
    var logFormat: LogFormatOption

    /// Reads the options (those a command does not declare are simply absent).
    init(parsing arguments: ParsedArguments) {
        databasePath = arguments.value("db")
        groups = arguments.value("groups")
        relayListPath = arguments.value("relay-list")
        allowsPrivateAddresses = arguments.flag("allow-private-addresses")
        logFormat = LogFormatOption(parsing: arguments)
    }

    /// Creates the folders of the default database (`$XDG_DATA_HOME/orgsocial`, else
    /// `~/.local/share/orgsocial`) when `configuration` uses it, for the commands that create a database
    /// (`relay serve`, `relay crawl`): a fresh account may have no `~/.local/share` yet. A path given with
    /// `--db` or `$ORGSOCIAL_RELAY_DB` gets only its last folder created, by the relay itself, so that a
    /// mistyped one leaves no tree of folders behind.
    /// - Parameters:
    ///   - configuration: the relay's configuration.
    ///   - environment: the environment variables.
    static func createDefaultFolders(for configuration: RelayConfiguration, environment: [String: String]) {
        guard !configuration.usesPostgres,
            configuration.databasePath == RelayConfiguration.defaultDatabasePath(environment: environment)
        else { return }
        let folder = (configuration.databasePath as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    /// The group names of a `--groups` list, each reachable at `/groups/<slug>/` and none twice.
    /// - Parameters:
    ///   - list: the comma-separated names.
    ///   - source: where the list comes from (the option or the variable), named in the error.
    /// - Returns: the names.
    /// - Throws: ``CLIError`` naming the source for a name with `/`, `?`, `#` or `%` (its slug is no path
    ///   segment, so its group could never be read) and for two names of one slug (`Emacs,emacs`).
    static func checkedGroups(_ list: String, from source: SettingResolver.Source) throws -> [String] {
        let names = RelayConfiguration.groups(parsing: list)
        var seen: [String: String] = [:]
        for name in names {
            if name.contains(where: { "/?#%".contains($0) }) {
                throw SettingResolver.error(
                    value: name, from: source,
                    expected: "group names without '/', '?', '#' or '%' (a group is read at /groups/<name>/)")
            }
            let slug = ConfiguredGroup.slug(of: name)
            if let other = seen[slug] {
                throw SettingResolver.error(
                    value: list, from: source,
                    expected: "each group once: '\(other)' and '\(name)' are the same group (/groups/\(slug)/)")
            }
            seen[slug] = name
        }
        return names
    }

    /// Checks the values' form.
    /// - Throws: ``CLIError/invalidValue(value:option:reason:)`` for an empty `--db`.
    func validate() throws {
        if let databasePath, databasePath.isEmpty {
            throw CLIError.invalidValue(
                value: databasePath, option: Self.databaseOption.synopsis, reason: "Give the database file's path.")
        }
    }

    /// The relay configuration these options describe, with the environment's fallbacks and the defaults.
    /// - Parameter context: the command's context (environment, standard error for the log).
    /// - Returns: the configuration, logging to standard error.
    /// - Throws: ``CLIError/validation(_:)`` when there is no database path at all,
    ///   ``CLIError/invalidEnvironment(name:value:reason:)`` for a bad variable.
    func configuration(in context: CommandContext) throws -> RelayConfiguration {
        let environment = context.environment
        let settings = SettingResolver(environment: environment)
        guard
            let path = try settings.resolve(
                option: databasePath, variable: Self.databaseVariable,
                default: RelayConfiguration.defaultDatabasePath(environment: environment), as: .text)?.value
        else {
            throw CLIError.validation(
                "There is no default place for the relay database: HOME and XDG_DATA_HOME are not set. Give one "
                    + "with --db PATH.")
        }
        var configuration = RelayConfiguration(databasePath: path)
        if let groups = try settings.resolve(
            option: groups, synopsis: Self.groupsOption.synopsis, variable: Self.groupsVariable, as: .text)
        {
            configuration.groups = try Self.checkedGroups(groups.value, from: groups.source)
        }
        configuration.relayListPath = try settings.resolve(
            option: relayListPath, variable: Self.relayListVariable, as: .text)?.value
        configuration.allowPrivateAddresses = try Self.isOn(
            allowsPrivateAddresses, variable: Self.privateAddressesVariable, in: settings)
        let errorOutput = SerializedOutput(
            context.writeStandardError,
            format: try logFormat.resolved(variable: Self.logFormatVariable, environment: environment))
        configuration.log = { message in errorOutput.line(message) }
        return configuration
    }

    /// A switch of the relay commands: on when its flag is given, else as its environment variable says
    /// (``SettingResolver/Format/onOff``; unset or empty is off).
    /// - Parameters:
    ///   - flag: whether the flag was given.
    ///   - variable: the environment variable that stands for the flag.
    ///   - settings: the command's settings.
    /// - Returns: whether the switch is on.
    /// - Throws: ``CLIError/invalidEnvironment(name:value:reason:)`` for any other value.
    static func isOn(_ flag: Bool, variable: String, in settings: SettingResolver) throws -> Bool {
        try settings.value(option: flag ? true : nil, variable: variable, default: false, as: .onOff)
    }
}
