import Foundation
import OrgSocialClient
import TestSupport
import Testing

@testable import OrgSocialCLI

/// The configuration file (location, mode 0600, atomic writes) and how the environment overrides it.
struct ConfigurationTests {
    private func context(_ environment: [String: String]) -> CommandContext {
        CommandContext(environment: environment, writeStandardOutput: { _ in }, writeStandardError: { _ in })
    }

    @Test func locationFollowsOrgsocialConfigThenXDGThenHome() {
        #expect(ConfigurationFile(environment: ["ORGSOCIAL_CONFIG": "/x/c.json", "HOME": "/h"])?.path == "/x/c.json")
        #expect(
            ConfigurationFile(environment: ["XDG_CONFIG_HOME": "/xdg/", "HOME": "/h"])?.path
                == "/xdg/orgsocial/config.json")
        #expect(
            ConfigurationFile(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"])?.path
                == "/h/.config/orgsocial/config.json")
        #expect(ConfigurationFile(environment: [:]) == nil)
    }

    @Test func isWrittenAtomicallyWithMode0600InA0700Folder() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = try #require(ConfigurationFile(environment: ["XDG_CONFIG_HOME": folder.url.path]))
        var configuration = Configuration()
        configuration.feedURL = "https://ana.example.org/social.org"
        configuration.publish = Configuration.Publishing(method: "put", token: "s3cret", automatic: true)
        try file.save(configuration)
        #expect(try permissions(of: file.path) == 0o600)
        #expect(try permissions(of: folder.path("orgsocial")) == 0o700)
        #expect(try file.load() == configuration)
        #expect(
            try folder.text("orgsocial/config.json") == """
                {
                  "feedURL" : "https://ana.example.org/social.org",
                  "publish" : {
                    "automatic" : true,
                    "method" : "put",
                    "token" : "s3cret"
                  }
                }

                """)
        // An existing, too open file becomes 0600 again when rewritten.
        chmod(file.path, 0o644)
        try file.save(configuration)
        #expect(try permissions(of: file.path) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("orgsocial")) == ["config.json"])
    }

    @Test func brokenFilesAreReportedWithTheirPath() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write("{not json", to: "config.json")
        #expect(throws: CLIError.invalidConfiguration(path: path, reason: "it is not valid JSON")) {
            try ConfigurationFile(environment: ["ORGSOCIAL_CONFIG": path])?.load()
        }
        try folder.write(#"{"publish": {"automatic": "yes"}}"#, to: "config.json")
        #expect(throws: CLIError.invalidConfiguration(path: path, reason: "\"publish.automatic\" has the wrong type")) {
            try ConfigurationFile(environment: ["ORGSOCIAL_CONFIG": path])?.load()
        }
    }

    @Test func environmentOverridesTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            #"{"feedURL": "https://file.example.org/social.org", "publish": {"token": "from-file"}}"#, to: "c.json")
        let fromFile = try PublishTarget.resolve(in: context(["ORGSOCIAL_CONFIG": path]), feedURLOption: nil)
        #expect(fromFile.feedURL.absoluteString == "https://file.example.org/social.org")
        #expect((fromFile as? NodeDestination)?.token == "from-file")

        let overridden = try PublishTarget.resolve(
            in: context([
                "ORGSOCIAL_CONFIG": path, "ORGSOCIAL_TOKEN": "from-env",
                "ORGSOCIAL_FEED_URL": "https://env.example.org/social.org",
            ]), feedURLOption: nil)
        #expect(overridden.feedURL.absoluteString == "https://env.example.org/social.org")
        #expect((overridden as? NodeDestination)?.token == "from-env")

        let option = try PublishTarget.resolve(
            in: context(["ORGSOCIAL_CONFIG": path, "ORGSOCIAL_FEED_URL": "https://env.example.org/social.org"]),
            feedURLOption: "https://option.example.org/social.org")
        #expect(option.feedURL.absoluteString == "https://option.example.org/social.org")

        let host = try PublishTarget.resolve(
            in: context([
                "ORGSOCIAL_CONFIG": path, "ORGSOCIAL_VFILE": "https://host.example.org/vfile?token=t",
                "ORGSOCIAL_PUBLISH_METHOD": "host",
            ]), feedURLOption: nil)
        #expect((host as? HostDestination)?.vfile == URL(string: "https://host.example.org/vfile?token=t"))
    }

    @Test func missingSettingsSayWhatToSet() throws {
        #expect {
            try PublishTarget.resolve(in: context([:]), feedURLOption: nil)
        } throws: { error in
            (error as? CLIError)?.localizedDescription.contains("orgsocial signup") == true
        }
        #expect {
            try PublishTarget.resolve(in: context(["ORGSOCIAL_TOKEN": "t"]), feedURLOption: nil)
        } throws: { error in
            (error as? CLIError)?.localizedDescription.contains("No feed URL") == true
        }
        #expect {
            try PublishTarget.resolve(in: context(["ORGSOCIAL_PUBLISH_METHOD": "ftp"]), feedURLOption: nil)
        } throws: { error in
            (error as? CLIError)
                == .invalidEnvironment(
                    name: "ORGSOCIAL_PUBLISH_METHOD", value: "ftp",
                    reason: "it must be one of put, host, webdav, github, forgejo, codeberg, gitea, or unset.")
        }
    }

    @Test func aSecretInAReadableFileIsWarnedAbout() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = try folder.write(
            #"{"feedURL": "https://a.example.org/social.org", "publish": {"token": "t"}}"#, to: "c.json")
        chmod(path, 0o644)
        var error: [UInt8] = []
        let context = CommandContext(
            environment: ["ORGSOCIAL_CONFIG": path], writeStandardOutput: { _ in }, writeStandardError: { error += $0 })
        _ = try PublishTarget.resolve(in: context, feedURLOption: nil)
        #expect(
            String(decoding: error, as: UTF8.self)
                == "warning: \(path) holds a secret but others can read it; run 'chmod 600 \(path)'.\n")
    }

    @Test func theConfiguredFeedURLIsUsedForPostURLs() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let config = try folder.write(#"{"feedURL": "https://ana.example.org/social.org"}"#, to: "config.json")
        let file = try folder.write(sampleFeed, to: "social.org")
        let result = await runCLIOverCurl(
            ["post", "--file", file, "--text", "Hi"], environment: ["ORGSOCIAL_CONFIG": config])
        #expect(result.status == 0)
        #expect(result.output == "https://ana.example.org/social.org#2026-01-02T03:04:05+0000\n")
    }
}
