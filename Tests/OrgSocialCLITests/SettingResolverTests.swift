import Testing

@testable import OrgSocialCLI

/// ``SettingResolver``: the option, else the environment variable, else the configuration value, else the
/// default; an empty value counts as unset; a bad value's error names where it came from.
struct SettingResolverTests {
    private let variable = "ORGSOCIAL_DEMO"
    private let port: SettingResolver.Format<Int> = .integer(0...65535)

    /// Resolves the demo setting with `option`, the variable set to `variable` and the configuration value.
    private func resolve(
        option: Int? = nil, variable text: String? = nil, configuration: String? = nil, default defaultValue: Int? = 1
    ) throws -> (value: Int, source: SettingResolver.Source)? {
        var environment = ["ORGSOCIAL_CONFIG": "/tmp/config.json"]
        environment[variable] = text
        return try SettingResolver(environment: environment).resolve(
            option: option, synopsis: "--demo <n>", variable: variable, configuration: ("demo", { configuration }),
            default: defaultValue, as: port)
    }

    @Test func theOptionWinsOverTheEnvironmentOverTheConfigurationOverTheDefault() throws {
        let fromOption = try #require(try resolve(option: 4, variable: "3", configuration: "2"))
        #expect(fromOption.value == 4 && fromOption.source == .option("--demo <n>"))
        let fromEnvironment = try #require(try resolve(variable: "3", configuration: "2"))
        #expect(fromEnvironment.value == 3 && fromEnvironment.source == .environment(variable))
        let fromConfiguration = try #require(try resolve(configuration: "2"))
        #expect(fromConfiguration.value == 2)
        #expect(fromConfiguration.source == .configuration(path: "/tmp/config.json", key: "demo"))
        let fromDefault = try #require(try resolve())
        #expect(fromDefault.value == 1 && fromDefault.source == .default)
        #expect(try resolve(default: nil) == nil)
    }

    @Test func anEmptyVariableOrConfigurationValueCountsAsUnset() throws {
        #expect(try resolve(variable: "", configuration: "2")?.value == 2)
        #expect(try resolve(variable: "", configuration: "")?.source == .default)
        var read = false
        _ = try resolve(variable: "3", configuration: nil)
        _ = try SettingResolver(environment: [variable: "3"]).resolve(
            option: nil, variable: variable,
            configuration: (
                "demo",
                {
                    read = true
                    return nil
                }
            ), as: port)
        #expect(!read, "the configuration is read only when nothing before it gives a value")
        #expect(SettingResolver(environment: [variable: ""]).text(of: variable) == nil)
        #expect(SettingResolver(environment: [variable: " "]).text(of: variable) == " ")
        #expect(SettingResolver(environment: [:]).text(of: nil) == nil)
    }

    @Test func aBadOptionIsAUsageErrorQuotingTheOption() throws {
        #expect(
            throws: CLIError.invalidValue(
                value: "x", option: "--demo <n>", reason: "Give a whole number from 0 to 65535.")
        ) {
            try SettingResolver.value("x", from: .option("--demo <n>"), as: port)
        }
        #expect(CLIError.invalidValue(value: "x", option: "--demo <n>", reason: "").isUsageError)
    }

    @Test func aBadVariableNamesTheVariable() throws {
        #expect(
            throws: CLIError.invalidEnvironment(
                name: variable, value: "x", reason: "it must be a whole number from 0 to 65535, or unset.")
        ) { try resolve(variable: "x", configuration: "2") }
    }

    @Test func aBadConfigurationValueNamesTheFileAndKey() throws {
        #expect(
            throws: CLIError.invalidConfiguration(
                path: "/tmp/config.json", reason: "\"demo\" is 'x': it must be a whole number from 0 to 65535")
        ) { try resolve(configuration: "x") }
    }

    @Test func formatsSayWhatTheyAccept() {
        #expect(
            SettingResolver.Format<Int>.integer(0...86_400, of: "seconds").expected
                == "a whole number of seconds from 0 to 86400")
        #expect(SettingResolver.Format<Int>.integer(0...9).parse("10") == nil)
        #expect(SettingResolver.Format<Bool>.onOff.parse(" Yes ") == true)
        #expect(SettingResolver.Format<Bool>.onOff.parse("off") == false)
        #expect(SettingResolver.Format<Bool>.onOff.parse("maybe") == nil)
        #expect(SettingResolver.Format<String>.httpURL.parse("ftp://example.org") == nil)
        #expect(SettingResolver.Format<String>.httpURL.parse("https://example.org") == "https://example.org")
    }
}
