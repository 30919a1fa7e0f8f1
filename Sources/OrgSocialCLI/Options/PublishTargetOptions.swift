import OrgSocialClient

/// The options that say where and how a feed is published, one per publishing setting of the
/// configuration (`--publish-method` for `publish.method`, …); each wins over its environment variable and
/// the configuration file (``PublishTarget``).
struct PublishTargetOptions: Sendable {
    /// One option: its name, the configuration key it stands for, its value's name and its help.
    struct Setting: Sendable {
        /// The option's long name.
        let option: String
        /// The configuration key.
        let key: String
        /// The value's placeholder.
        let valueName: String
        /// The help text.
        let help: String
    }

    /// The options, in help order.
    static let settings: [Setting] = [
        Setting(
            option: "publish-method", key: "publish.method", valueName: "method",
            help: "How to publish: put, host, webdav, github or forgejo (codeberg and gitea are forgejo)."),
        Setting(
            option: "publish-url", key: "publish.url", valueName: "url",
            help: "The WebDAV upload URL (default: the feed URL)."),
        Setting(
            option: "publish-username", key: "publish.username", valueName: "name",
            help: "The WebDAV user name; the token is the password."),
        Setting(
            option: "publish-token", key: "publish.token", valueName: "token",
            help: "The token (put, github, forgejo) or password (webdav); '-' reads it from standard input."),
        Setting(
            option: "publish-owner", key: "publish.owner", valueName: "owner",
            help: "The repository's owner (github, forgejo)."),
        Setting(
            option: "publish-repo", key: "publish.repo", valueName: "repo",
            help: "The repository holding the feed (github, forgejo)."),
        Setting(
            option: "publish-path", key: "publish.path", valueName: "path",
            help: "The feed's path in the repository (default: social.org)."),
        Setting(
            option: "publish-branch", key: "publish.branch", valueName: "branch",
            help: "The branch to commit to (default: main)."),
        Setting(
            option: "publish-instance", key: "publish.instance", valueName: "url",
            help: "The forge's API base (default: https://api.github.com, or https://codeberg.org for forgejo)."),
    ]

    /// The definitions, in help order.
    static let definitions: [OptionDefinition] = settings.map { setting in
        var definition = OptionDefinition.value(
            setting.option, valueName: setting.valueName, help: setting.help,
            allowedValues: setting.key == "publish.method" ? PublishMethod.acceptedNames : [])
        definition.usageFamily = "[--publish-<setting> <value> ...]"
        return definition
    }

    /// The values given, by configuration key.
    let values: [String: String]

    /// No options.
    init() { values = [:] }

    /// Reads the options.
    /// - Parameter arguments: the parsed command line.
    init(parsing arguments: ParsedArguments) {
        var values: [String: String] = [:]
        for setting in Self.settings {
            if let value = arguments.value(setting.option) { values[setting.key] = value }
        }
        self.values = values
    }

    /// The option that stands for `key`, for messages (`--publish-token <token>`).
    static func synopsis(of key: String) -> String {
        guard let setting = settings.first(where: { $0.key == key }) else { return key }
        return "--\(setting.option) <\(setting.valueName)>"
    }
}
