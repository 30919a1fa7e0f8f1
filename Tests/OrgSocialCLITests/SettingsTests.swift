import Foundation
import TestSupport
import Testing

/// The settings apply wherever their value matters: the `file` setting for every command that takes
/// `--file`, the configured feed URL for the configured file only, the `language` setting for every new
/// post, language codes checked (and lists read one way) wherever they enter, and `-` reading a value
/// from standard input in `config set`.
@Suite("settings")
struct SettingsTests {
    /// A folder for the feeds and the configuration, and an environment whose configuration file is in it.
    func withSettings(_ body: (TemporaryFolder, [String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = testEnvironment
        environment["HOME"] = folder.path
        environment["ORGSOCIAL_CONFIG"] = folder.path("config.json")
        try await body(folder, environment)
    }

    // MARK: - The file setting

    @Test func everyCommandThatTakesFileUsesTheFileSetting() async throws {
        try await withSettings { folder, environment in
            var environment = environment
            environment["ORGSOCIAL_FILE"] = folder.path("mine.org")
            let created = await runCLI(["init", "--title", "Ana", "--nick", "ana"], environment: environment)
            #expect(created.status == 0, "\(created.error)")
            #expect(created.output == "Created \(folder.path("mine.org"))\n")
            let posted = await runCLI(["post", "--text", "Hello from the setting."], environment: environment)
            #expect(posted.status == 0, "\(posted.error)")
            let id = posted.output.trimmingCharacters(in: .newlines)
            let follow = await runCLI(["follow", "https://bob.example.org/social.org"], environment: environment)
            #expect(follow.status == 0, "\(follow.error)")
            let edit = await runCLI(["edit", "--id", id, "--set", "MOOD=🎉"], environment: environment)
            #expect(edit.status == 0, "\(edit.error)")
            let text = try String(contentsOfFile: folder.path("mine.org"), encoding: .utf8)
            #expect(text.contains("Hello from the setting."))
            #expect(text.contains("#+FOLLOW: https://bob.example.org/social.org"))
            #expect(text.contains(":MOOD: 🎉"))

            // The configuration file's "file", when the variable is not set.
            environment["ORGSOCIAL_FILE"] = nil
            let set = await runCLI(["config", "set", "file", folder.path("mine.org")], environment: environment)
            #expect(set.status == 0)
            let again = await runCLI(["pin", "--id", id], environment: environment)
            #expect(again.status == 0, "\(again.error)")
            #expect(try String(contentsOfFile: folder.path("mine.org"), encoding: .utf8).contains("#+PINNED: \(id)"))
        }
    }

    @Test func withoutFileOrSettingTheCommandSaysWhereToGiveIt() async throws {
        try await withSettings { _, environment in
            let result = await runCLI(["post", "--text", "Nowhere to go."], environment: environment)
            #expect(result.status == 2)
            #expect(result.error.contains("No feed file given: pass --file FILE, set ORGSOCIAL_FILE"))
        }
    }

    // MARK: - The feed URL belongs to the configured file

    @Test func theConfiguredFeedURLNamesOnlyThePostsOfTheConfiguredFile() async throws {
        try await withSettings { folder, environment in
            var environment = environment
            environment["ORGSOCIAL_FILE"] = folder.path("mine.org")
            environment["ORGSOCIAL_FEED_URL"] = testFeedURL
            for name in ["mine.org", "other.org"] {
                let created = await runCLI(
                    ["init", "--file", folder.path(name), "--title", "T", "--nick", "n"], environment: environment)
                #expect(created.status == 0)
            }
            let mine = await runCLI(["post", "--text", "Mine."], environment: environment)
            #expect(mine.output == "\(testFeedURL)#2026-01-02T03:04:05+0000\n")
            let same = await runCLI(
                ["post", "--file", folder.path("./mine.org"), "--text", "Mine again."], environment: environment)
            #expect(same.output == "\(testFeedURL)#2026-01-02T03:04:06+0000\n")
            let other = await runCLI(
                ["post", "--file", folder.path("other.org"), "--text", "Another feed."], environment: environment)
            #expect(other.status == 0)
            #expect(other.output == "2026-01-02T03:04:05+0000\n")
            let named = await runCLI(
                [
                    "delete", "--file", folder.path("other.org"), "--id", "2026-01-02T03:04:05+0000", "--feed-url",
                    "https://other.example.org/social.org",
                ], environment: environment)
            #expect(named.output == "https://other.example.org/social.org#2026-01-02T03:04:05+0000\n")

            let posted = await runCLI(
                ["post", "--file", folder.path("other.org"), "--text", "Read locally."], environment: environment)
            #expect(posted.status == 0)
            let timeline = await runCLI(
                ["timeline", "--file", folder.path("other.org"), "--no-relay", "--no-pager"], environment: environment)
            #expect(timeline.status == 0, "\(timeline.error)")
            #expect(timeline.output.contains("Read locally."))
            #expect(!timeline.output.contains(testFeedURL))
            #expect(timeline.output.contains(URL(fileURLWithPath: folder.path("other.org")).absoluteString + "#"))
        }
    }

    // MARK: - Languages

    @Test func theLanguageSettingAppliesToPollsAndQuoteBoosts() async throws {
        try await withSettings { folder, environment in
            var environment = environment
            environment["ORGSOCIAL_LANG"] = "es"
            let file = folder.path("mine.org")
            let created = await runCLI(
                ["init", "--file", file, "--title", "T", "--nick", "n"], environment: environment)
            #expect(created.status == 0)
            let poll = await runCLI(
                ["poll", "--file", file, "--question", "¿Cuál?", "--option", "Uno", "--option", "Dos"],
                environment: environment)
            #expect(poll.status == 0, "\(poll.error)")
            let boost = await runCLI(
                [
                    "boost", "--file", file, "--post", "https://bob.example.org/social.org#2026-01-01T00:00:00+0000",
                    "--text", "¡Mira!",
                ], environment: environment)
            #expect(boost.status == 0, "\(boost.error)")
            let text = try String(contentsOfFile: folder.path("mine.org"), encoding: .utf8)
            #expect(text.components(separatedBy: ":LANG: es").count == 3)
        }
    }

    @Test func languageCodesAreCheckedWhereverTheyEnter() async throws {
        try await withSettings { folder, environment in
            let file = folder.path("mine.org")
            let created = await runCLI(
                ["init", "--file", file, "--title", "T", "--nick", "n"], environment: environment)
            #expect(created.status == 0)
            let posted = await runCLI(["post", "--file", file, "--text", "Hi."], environment: environment)
            let id = posted.output.trimmingCharacters(in: .newlines)

            let edit = await runCLI(
                ["edit", "--file", file, "--id", id, "--set", "LANG=english"], environment: environment)
            #expect(edit.status != 0)
            #expect(edit.error.contains("ISO 639-1"))
            let unchanged = try String(contentsOfFile: folder.path("mine.org"), encoding: .utf8)
            #expect(!unchanged.contains("english"))

            let filter = await runCLI(["timeline", "--lang", "en,english", "--no-pager"], environment: environment)
            #expect(filter.status == 2)
            #expect(filter.error.contains("'english' is not an ISO 639-1 language code"))

            var languages = environment
            languages["ORGSOCIAL_LANGUAGES"] = "en english"
            let shown = await runCLI(["timeline", "--file", file, "--no-relay", "--no-pager"], environment: languages)
            #expect(shown.status != 0)
            #expect(shown.error.contains("ORGSOCIAL_LANGUAGES"))

            var language = environment
            language["ORGSOCIAL_LANG"] = "english"
            let post = await runCLI(["post", "--file", file, "--text", "Which language?"], environment: language)
            #expect(post.status != 0)
            #expect(post.error.contains("ORGSOCIAL_LANG"))
            let after = try String(contentsOfFile: folder.path("mine.org"), encoding: .utf8)
            #expect(!after.contains("Which language?"))
        }
    }

    @Test func aBlockListThatNamesNoFeedIsRefusedWhereverItComesFrom() async throws {
        try await withSettings { folder, environment in
            let file = folder.path("mine.org")
            _ = await runCLI(["init", "--file", file, "--title", "T", "--nick", "n"], environment: environment)
            var blocking = environment
            blocking["ORGSOCIAL_BLOCK"] = "notaurl"

            let shown = await runCLI(["timeline", "--file", file, "--no-relay", "--no-pager"], environment: blocking)

            #expect(shown.status != 0)
            #expect(
                shown.error.contains("ORGSOCIAL_BLOCK") && shown.error.contains("notaurl"), "\(shown.error)")
            #expect(shown.error.contains("http:// or https:// feed URLs"))
        }
    }

    @Test func languageListsAreWrittenWithCommasOrSpacesAlike() async throws {
        try await withSettings { folder, environment in
            let comma = await runCLI(
                ["init", "--file", folder.path("a.org"), "--title", "T", "--nick", "n", "--language", "en,es"],
                environment: environment)
            #expect(comma.status == 0, "\(comma.error)")
            let header = try String(contentsOfFile: folder.path("a.org"), encoding: .utf8)
            #expect(header.contains("#+LANGUAGE: en es\n"))

            let spaces = await runCLI(["config", "set", "languages", "en es"], environment: environment)
            #expect(spaces.status == 0, "\(spaces.error)")
            #expect(await runCLI(["config", "get", "languages"], environment: environment).output == "en,es\n")
            let removed = await runCLI(["config", "remove", "languages", "es fr"], environment: environment)
            #expect(removed.status == 0)
            #expect(await runCLI(["config", "get", "languages"], environment: environment).output == "en\n")

            // The timeline filter reads both forms: only the posts in the chosen languages are shown.
            let file = folder.path("a.org")
            for (text, language) in [("English post.", "en"), ("Post en español.", "es"), ("Post français.", "fr")] {
                let posted = await runCLI(
                    ["post", "--file", file, "--text", text, "--lang", language], environment: environment)
                #expect(posted.status == 0)
            }
            for filter in ["en es", "en,es"] {
                let timeline = await runCLI(
                    ["timeline", "--file", file, "--no-relay", "--no-pager", "--lang", filter], environment: environment
                )
                #expect(timeline.status == 0, "\(timeline.error)")
                #expect(timeline.output.contains("English post."))
                #expect(timeline.output.contains("Post en español."))
                #expect(!timeline.output.contains("Post français."))
            }
        }
    }

    // MARK: - Secrets from standard input

    @Test func configSetReadsADashFromStandardInput() async throws {
        try await withSettings { folder, environment in
            let set = await runCLI(
                ["config", "set", "publish.token", "-"], input: Array("s3cret-token\n".utf8), environment: environment)
            #expect(set.status == 0, "\(set.error)")
            #expect(set.error.contains("publish.token = (hidden) saved in"))
            let saved = try String(contentsOfFile: folder.path("config.json"), encoding: .utf8)
            #expect(saved.contains("\"token\" : \"s3cret-token\""))
            #expect(!saved.contains("\"-\""))
            let empty = await runCLI(["config", "set", "publish.token", "-"], input: [], environment: environment)
            #expect(empty.status == 2)
        }
    }
}
