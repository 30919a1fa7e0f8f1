import FakeMastodon
import Foundation
import Testing

@testable import TootClient

@Suite struct DiscoveryTests {
    /// What discovery must find for each preset.
    struct Expectation: Sendable {
        var preset: FakeMastodonConfiguration
        var software: String
        var platformName: String
        var schema: String?
        var instanceDocument: String?
        var maxCharacters: Int
        var charactersPerURL: Int
        var pollMaxOptions: Int
    }

    static let expectations: [Expectation] = [
        Expectation(
            preset: .mastodon45, software: "mastodon", platformName: "Mastodon", schema: "2.0", instanceDocument: "v2",
            maxCharacters: 500, charactersPerURL: 23, pollMaxOptions: 4),
        Expectation(
            preset: .mastodon40, software: "mastodon", platformName: "Mastodon", schema: "2.0", instanceDocument: "v2",
            maxCharacters: 500, charactersPerURL: 23, pollMaxOptions: 4),
        Expectation(
            preset: .gotosocial, software: "gotosocial", platformName: "GoToSocial", schema: "2.0",
            instanceDocument: "v2", maxCharacters: 5000, charactersPerURL: 25, pollMaxOptions: 6),
        Expectation(
            preset: .akkoma, software: "akkoma", platformName: "Akkoma", schema: "2.1", instanceDocument: "v1",
            maxCharacters: 5000, charactersPerURL: 23, pollMaxOptions: 20),
        Expectation(
            preset: .pixelfed, software: "pixelfed", platformName: "Pixelfed", schema: "2.0", instanceDocument: "v2",
            maxCharacters: 2000, charactersPerURL: 23, pollMaxOptions: 4),
    ]

    @Test(arguments: expectations)
    func discoveryFindsEachPresetsPlatformAndLimits(_ expected: Expectation) async throws {
        try await withFake(expected.preset, scopes: nil) { fake, client in
            let profile = try await client.discover()
            #expect(profile.software == expected.software)
            #expect(profile.platform.name == expected.platformName)
            #expect(profile.nodeInfoSchema == expected.schema)
            #expect(profile.instanceDocument == expected.instanceDocument)
            #expect(profile.limits.maxCharacters == expected.maxCharacters)
            #expect(profile.limits.charactersPerURL == expected.charactersPerURL)
            #expect(profile.limits.pollMaxOptions == expected.pollMaxOptions)
            #expect(profile.apiVersion == expected.preset.apiVersion)
            // Discovery needs no token, and the instance's own version string never decides the platform.
            #expect(fake.journal.allSatisfy { $0.authorization == nil })
        }
    }

    @Test func misskeyIsRefusedWithAClearError() async throws {
        try await withFake(.misskey, scopes: nil) { _, client in
            await #expect(
                throws: TootClientError.noMastodonAPI(instance: client.instanceURL.absoluteString, software: "Misskey")
            ) {
                try await client.discover()
            }
        }
    }

    @Test func withoutNodeInfoTheCompatibleClauseOfTheVersionNamesTheSoftware() async throws {
        var akkoma = FakeMastodonConfiguration.akkoma
        akkoma.nodeInfoSchemas = []
        try await withFake(akkoma, scopes: nil) { _, client in
            let profile = try await client.discover()
            #expect(profile.software == "akkoma")
            #expect(profile.version == "3.10.2")
            #expect(profile.nodeInfoSchema == nil)
            #expect(profile.platform is Akkoma)
        }
    }

    @Test func theProfileRoundTripsThroughJSONSoARestartNeedsNoDiscovery() async throws {
        try await withFake(.gotosocial, scopes: nil) { _, client in
            let profile = try await client.discover()
            let decoded = try JSONDecoder().decode(ServerProfile.self, from: JSONEncoder().encode(profile))
            #expect(decoded == profile)
            #expect(!decoded.platform.supports(.idempotencyKey))
        }
    }

    // MARK: - Documents we wrote per preset

    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    @Test func limitsComeFromTheFirstDocumentThatHasThem() throws {
        let decoder = TootDates.makeDecoder()
        let mastodon = try decoder.decode(InstanceDocument.self, from: Self.fixture("instance-v2-mastodon-4.5"))
        #expect(TootClient.limits(v2: mastodon, v1: nil, nodeInfo: nil) == .mastodonDefaults)
        #expect(mastodon.apiVersions?.mastodon == 7)

        let gotosocial = try decoder.decode(InstanceDocument.self, from: Self.fixture("instance-v2-gotosocial"))
        let gotosocialLimits = TootClient.limits(v2: gotosocial, v1: nil, nodeInfo: nil)
        #expect(gotosocialLimits.maxCharacters == 5000)
        #expect(gotosocialLimits.charactersPerURL == 25)
        #expect(gotosocialLimits.maxMediaAttachments == 6)

        let akkoma = try decoder.decode(InstanceDocument.self, from: Self.fixture("instance-v1-akkoma"))
        let akkomaLimits = TootClient.limits(v2: nil, v1: akkoma, nodeInfo: nil)
        #expect(akkomaLimits.maxCharacters == 5000)
        #expect(akkomaLimits.pollMaxOptions == 20)
        #expect(akkomaLimits.pollMaxCharactersPerOption == 200)
        #expect(akkomaLimits.pollMaxExpiration == 31_536_000)
        #expect(TootClient.compatibleSoftware(akkoma.version) == "akkoma")

        let sharkey = try decoder.decode(NodeInfoDocument.self, from: Self.fixture("nodeinfo-sharkey"))
        #expect(TootClient.limits(v2: nil, v1: nil, nodeInfo: sharkey).maxCharacters == 8000)
        #expect(
            Platforms.platform(software: sharkey.software.name, version: sharkey.software.version ?? "") is MisskeyFork)
    }

    @Test func nodeInfoDocumentsNameTheirSoftware() throws {
        let decoder = TootDates.makeDecoder()
        let cases: [(String, String)] = [
            ("nodeinfo-iceshrimp-net", "Iceshrimp.NET"), ("nodeinfo-misskey", "Misskey"),
            ("nodeinfo-gotosocial", "GoToSocial"), ("nodeinfo-unknown", "takahe (MastoAPI, features unknown)"),
        ]
        for (name, platform) in cases {
            let document = try decoder.decode(NodeInfoDocument.self, from: Self.fixture(name))
            #expect(
                Platforms.platform(software: document.software.name, version: document.software.version ?? "").name
                    == platform, "\(name)")
        }
    }
}
