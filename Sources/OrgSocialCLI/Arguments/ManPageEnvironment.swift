import Foundation

/// The ENVIRONMENT and FILES sections of one command's man page, found in the command's own texts: every
/// environment variable its overview, discussion, options or arguments name (`$ORGSOCIAL_FEED_URL`,
/// `ORGSOCIAL_RELAY_PORT`, `$TZ`) is listed, with its description taken from the setting it overrides
/// (``ConfigurationKey``), from the option whose default it is, or from ``generalVariables``; the files
/// follow from the variables (the configuration file, the feed cache, the relay database, the bridge
/// state) and from the systemd units of the Debian package.
struct ManPageEnvironment {
    /// One environment variable of a page.
    struct Variable: Equatable {
        /// Its name, without `$`.
        var name: String
        /// What it changes.
        var description: String
    }

    /// One file of a page.
    struct File: Equatable {
        /// Its path (`~` for the home folder).
        var path: String
        /// What it holds.
        var description: String
    }

    /// The variables, in the order the command's texts first name them.
    let variables: [Variable]
    /// The files.
    let files: [File]

    /// The sections of one command.
    init(node: CompletionGenerator.Node) {
        let configuration = node.configuration
        let optionTexts = node.options.map { (option: $0, text: $0.helpText) }
        let texts =
            [configuration.abstract, configuration.discussion ?? ""] + optionTexts.map(\.text)
            + configuration.arguments.map(\.help)
        var names: [String] = []
        for text in texts {
            for name in Self.variableNames(in: text) where !names.contains(name) { names.append(name) }
        }
        let readsConfiguration = texts.contains { $0.contains("configuration") }
        if readsConfiguration {
            for name in ["ORGSOCIAL_CONFIG", "XDG_CONFIG_HOME"] where !names.contains(name) { names.append(name) }
        }
        variables = names.map { name in
            let option = optionTexts.first { Self.variableNames(in: $0.text).contains(name) }?.option
            return Variable(name: name, description: Self.description(of: name, option: option))
        }
        var files: [File] = []
        if names.contains("ORGSOCIAL_CONFIG") {
            files.append(
                File(
                    path: "~/.config/orgsocial/config.json",
                    description: "The configuration file (mode 0600), unless $ORGSOCIAL_CONFIG or "
                        + "$XDG_CONFIG_HOME says otherwise; see orgsocial-config(1)."))
        }
        if names.contains("XDG_CACHE_HOME") {
            files.append(
                File(
                    path: "~/.cache/orgsocial/feeds/",
                    description: "Fetched feeds, for conditional requests ($XDG_CACHE_HOME/orgsocial/feeds)."))
        }
        if names.contains("ORGSOCIAL_RELAY_DB") {
            files.append(
                File(
                    path: "~/.local/share/orgsocial/relay.sqlite",
                    description: "The relay database when neither --db nor $ORGSOCIAL_RELAY_DB is given."))
        }
        if names.contains("ORGSOCIAL_BRIDGE_STATE") {
            files.append(
                File(
                    path: "~/.local/share/orgsocial/bridge.sqlite",
                    description: "The bridge's state (and its .lock) when neither --state nor "
                        + "$ORGSOCIAL_BRIDGE_STATE is given."))
        }
        if let unit = Self.units[node.path] {
            files.append(
                File(
                    path: "/etc/orgsocial/\(unit.settings)",
                    description: "The settings of the systemd unit \(unit.name) (Debian package), "
                        + "whose state is in /var/lib/orgsocial."))
        }
        self.files = files
    }

    /// The systemd units of the Debian package that run a command, with their settings file
    /// (see packaging/README.md).
    static let units: [String: (name: String, settings: String)] = [
        "orgsocial serve": ("orgsocial-node.service", "node.env"),
        "orgsocial relay serve": ("orgsocial-relay.service or orgsocial-relay-api@.service", "relay.env"),
        "orgsocial relay crawl": ("orgsocial-relay-crawl.service", "relay.env"),
        "orgsocial bridge run": ("orgsocial-bridge.service", "bridge.env"),
    ]

    /// Variables that no setting or option describes.
    static let generalVariables: [String: String] = [
        "ORGSOCIAL_CONFIG":
            "The configuration file (default: $XDG_CONFIG_HOME/orgsocial/config.json, else "
            + "~/.config/orgsocial/config.json).",
        "XDG_CONFIG_HOME": "The folder of orgsocial/config.json when $ORGSOCIAL_CONFIG is not set.",
        "XDG_DATA_HOME":
            "The folder of orgsocial/relay.sqlite and orgsocial/bridge.sqlite (default: ~/.local/share).",
        "XDG_CACHE_HOME": "The folder of the feed cache, orgsocial/feeds (default: ~/.cache).",
        "XDG_STATE_HOME": "The folder of what was last published from here (default: ~/.local/state).",
        "ORGSOCIAL_NOW":
            "The current time as an Org timestamp (<2026-01-12 Mon 09:30>), used instead of the clock, for "
            + "scripts and tests.",
        "ORGSOCIAL_DEFAULT_RELAY": "The relay used when none is configured (default: https://relay.org-social.org).",
        "ORGSOCIAL_DEFAULT_MIRROR":
            "The mirror read and told about writes when none is configured, or none (default: "
            + "https://mirror.org-social.org/api).",
        "TZ": "The time zone of new post IDs and of the times shown.",
        "PAGER": "The pager of long output on a terminal (default: less -FRX).",
        "HOME": "The home folder, where the default configuration, data and cache folders are.",
        "NO_COLOR": "When set and not empty, no colours.",
    ]

    /// Variables that stand for an option, described so on the pages of commands without that option.
    static let optionVariables: [String: String] = [
        "ORGSOCIAL_RELAY_DB": "The relay database: a SQLite file, or a postgres:// URL (what --db gives)."
    ]

    /// The description of a variable: the general one, else that of the setting it overrides, else the
    /// option whose value it stands for, else ``optionVariables``.
    static func description(of name: String, option: OptionDefinition?) -> String {
        if let text = generalVariables[name] { return text }
        if let key = ConfigurationKey.all.first(where: { $0.environmentName == name }) {
            return key.summary + " Overrides \"\(key.name)\" in the configuration file."
        }
        if let option { return "Used when \(option.longForm) is not given (see OPTIONS)." }
        return optionVariables[name] ?? "See DESCRIPTION."
    }

    /// The environment variables a text names: `ORGSOCIAL_*` and `XDG_*` names, and `$NAME` for the
    /// short ones (`$TZ`, `$PAGER`, `$HOME`, `$NO_COLOR`).
    static func variableNames(in text: String) -> [String] {
        var names: [String] = []
        for match in text.matches(of: /\$?\b((?:ORGSOCIAL|XDG)_[A-Z0-9_]*[A-Z0-9])\b|\$(TZ|PAGER|HOME|NO_COLOR)\b/) {
            if let name = match.output.1 ?? match.output.2, !names.contains(String(name)) {
                names.append(String(name))
            }
        }
        return names
    }
}
