import Foundation
import TestSupport
import Testing

/// `orgsocial config get|set|unset|add|remove|list` over `$XDG_CONFIG_HOME/orgsocial/config.json`.
@Suite("config command")
struct ConfigCommandTests {
    /// A fresh configuration folder and the environment that points at it.
    func withConfiguration(_ body: (TemporaryFolder, [String: String]) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        var environment = testEnvironment
        environment["XDG_CONFIG_HOME"] = folder.url.path
        try await body(folder, environment)
    }

    /// The saved configuration as a JSON object.
    func savedObject(in folder: TemporaryFolder) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.url.appendingPathComponent("orgsocial/config.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The saved block list.
    func blockList(in folder: TemporaryFolder) throws -> [String]? { try savedObject(in: folder)["block"] as? [String] }

    @Test func setFileStoresAnAbsolutePath() async throws {
        try await withConfiguration { folder, environment in
            let set = await runCLI(["config", "set", "file", "notes/../social.org"], environment: environment)
            #expect(set.status == 0)
            let expected = FileManager.default.currentDirectoryPath + "/social.org"
            let stored = try savedObject(in: folder)["file"] as? String
            #expect(stored == expected)
            #expect(await runCLI(["config", "set", "file", "/tmp/x/social.org"], environment: environment).status == 0)
            let absolute = try savedObject(in: folder)["file"] as? String
            #expect(absolute == "/tmp/x/social.org")
        }
    }

    @Test func setStoresACheckedValueThatGetPrints() async throws {
        try await withConfiguration { folder, environment in
            let set = await runCLI(
                ["config", "set", "relayURL", "https://relay.example.org"], environment: environment)
            #expect(set.status == 0)
            #expect(set.error.contains("relayURL = https://relay.example.org saved in"))
            #expect(try savedObject(in: folder)["relayURL"] as? String == "https://relay.example.org")
            let attributes = try FileManager.default.attributesOfItem(
                atPath: folder.url.appendingPathComponent("orgsocial/config.json").path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            let get = await runCLI(["config", "get", "relayURL"], environment: environment)
            #expect(get.status == 0)
            #expect(get.output == "https://relay.example.org\n")
        }
    }

    @Test func setRefusesValuesTheLibraryChecksReject() async throws {
        try await withConfiguration { folder, environment in
            let url = await runCLI(["config", "set", "feedURL", "ftp://x.org/social.org"], environment: environment)
            #expect(url.status == 2)
            #expect(url.error.contains("Give an http:// or https:// URL."))
            let language = await runCLI(["config", "set", "language", "english"], environment: environment)
            #expect(language.status == 2)
            #expect(language.error.contains("ISO 639-1"))
            let list = await runCLI(["config", "set", "languages", "en,english"], environment: environment)
            #expect(list.status == 2)
            #expect(list.error.contains("'english' is not an ISO 639-1 language code"))
            let key = await runCLI(["config", "set", "colour", "blue"], environment: environment)
            #expect(key.status == 2)
            #expect(key.error.contains("Give one of: feedURL, file"))
            #expect(!FileManager.default.fileExists(atPath: folder.path("orgsocial/config.json")))
        }
    }

    @Test func getFallsBackToTheDefaultRelayAndPrefersTheEnvironment() async throws {
        try await withConfiguration { _, environment in
            let fallback = await runCLI(["config", "get", "relayURL"], environment: environment)
            #expect(fallback.output == "https://relay.org-social.org\n")
            #expect(
                await runCLI(["config", "set", "relay", "https://a.example.org"], environment: environment).status == 0)
            var overridden = environment
            overridden["ORGSOCIAL_RELAY"] = "https://b.example.org"
            #expect(
                await runCLI(["config", "get", "relayURL"], environment: overridden).output == "https://b.example.org\n"
            )
            let unset = await runCLI(["config", "get", "feedURL"], environment: environment)
            #expect(unset.status == 1)
            #expect(unset.output.isEmpty)
        }
    }

    @Test func listShowsEveryKeyWithItsSourceAndHidesSecrets() async throws {
        try await withConfiguration { _, environment in
            #expect(await runCLI(["config", "set", "publish.token", "s3cret"], environment: environment).status == 0)
            #expect(
                await runCLI(["config", "set", "file", "/home/ana/social.org"], environment: environment).status == 0)
            var withEnvironment = environment
            withEnvironment["ORGSOCIAL_FEED_URL"] = "https://ana.example.org/social.org"
            let text = await runCLI(["config", "list"], environment: withEnvironment)
            #expect(text.status == 0)
            #expect(!text.output.contains("s3cret"))
            #expect(text.output.contains("publish.token      (hidden)  (file)"))
            #expect(
                text.output.contains("feedURL            https://ana.example.org/social.org  (env ORGSOCIAL_FEED_URL)"))
            #expect(text.output.contains("relayURL           https://relay.org-social.org  (default)"))
            #expect(text.output.contains("block              -"))
            let json = await runCLI(["config", "list", "--json"], environment: withEnvironment)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
            #expect((object["path"] as? String)?.hasSuffix("orgsocial/config.json") == true)
            let settings = try #require(object["settings"] as? [[String: Any]])
            let file = try #require(settings.first { $0["key"] as? String == "file" })
            #expect(file["value"] as? String == "/home/ana/social.org")
            #expect(file["source"] as? String == "file")
            #expect(file["environment"] as? String == "ORGSOCIAL_FILE")
            let block = try #require(settings.first { $0["key"] as? String == "block" })
            #expect(block["value"] is NSNull)
        }
    }

    @Test func addAndRemoveEditTheBlockList() async throws {
        try await withConfiguration { folder, environment in
            let first = "https://spam.example.org/social.org"
            let second = "https://noise.example.org/social.org"
            #expect(await runCLI(["config", "add", "block", first], environment: environment).status == 0)
            #expect(
                await runCLI(["config", "add", "block", "\(second), \(first)"], environment: environment).status == 0)
            let list1 = try blockList(in: folder)
            #expect(list1 == [first, second])
            #expect(await runCLI(["config", "remove", "block", first], environment: environment).status == 0)
            let list2 = try blockList(in: folder)
            #expect(list2 == [second])
            #expect(await runCLI(["config", "get", "block"], environment: environment).output == "\(second)\n")
            let notAList = await runCLI(["config", "add", "relayURL", first], environment: environment)
            #expect(notAList.status == 2)
            #expect(notAList.error.contains("Only list settings"))
            #expect(
                await runCLI(["config", "set", "block", "\(first),\(first)"], environment: environment).status == 0)
            let list3 = try blockList(in: folder)
            #expect(list3 == [first])
        }
    }

    @Test func unsetRemovesAKeyAndKeepsTheOthers() async throws {
        try await withConfiguration { folder, environment in
            #expect(await runCLI(["config", "set", "publish.method", "put"], environment: environment).status == 0)
            #expect(await runCLI(["config", "set", "language", "es"], environment: environment).status == 0)
            let unset = await runCLI(["config", "unset", "publish.method"], environment: environment)
            #expect(unset.status == 0)
            let object = try savedObject(in: folder)
            #expect(object["publish"] == nil)
            #expect(object["language"] as? String == "es")
            let again = await runCLI(["config", "unset", "publish.method"], environment: environment)
            #expect(again.status == 0)
            #expect(again.error.contains("nothing to do"))
        }
    }

    @Test func aWriteKeepsKeysThisVersionDoesNotKnowAtAnyDepth() async throws {
        try await withConfiguration { folder, environment in
            try folder.write(
                #"{"mirror": "https://mirror.example/api", "publish": {"method": "put", "branch": "main"}, "x": [1]}"#,
                to: "orgsocial/config.json")
            #expect(await runCLI(["config", "set", "language", "es"], environment: environment).status == 0)
            #expect(await runCLI(["config", "set", "publish.token", "t0ken"], environment: environment).status == 0)
            let object = try savedObject(in: folder)
            #expect(object["mirror"] as? String == "https://mirror.example/api")
            #expect(object["x"] as? [Int] == [1])
            #expect(object["language"] as? String == "es")
            let publish = try #require(object["publish"] as? [String: Any])
            #expect(publish["branch"] as? String == "main")
            #expect(publish["method"] as? String == "put")
            #expect(publish["token"] as? String == "t0ken")
        }
    }

    @Test func theConfiguredLanguageIsTheDefaultOfNewPosts() async throws {
        try await withConfiguration { folder, environment in
            let file = try folder.write("#+TITLE: T\n#+NICK: t\n\n* Posts\n", to: "social.org")
            #expect(await runCLI(["config", "set", "language", "es"], environment: environment).status == 0)
            #expect(await runCLI(["post", "--file", file, "--text", "Hola"], environment: environment).status == 0)
            #expect(try folder.text("social.org").contains(":LANG: es"))
            #expect(
                await runCLI(["post", "--file", file, "--text", "Hi", "--lang", "en"], environment: environment).status
                    == 0)
            #expect(try folder.text("social.org").contains(":LANG: en"))
        }
    }
}
