import Testing

@testable import TootClient

@Suite struct PlatformTests {
    @Test func everyKnownSoftwareNameMapsToItsPlatform() {
        let expected: [(String, String)] = [
            ("mastodon", "Mastodon"), ("glitch", "Glitch"), ("hometown", "Hometown"), ("gotosocial", "GoToSocial"),
            ("pleroma", "Pleroma"), ("akkoma", "Akkoma"), ("mitra", "Mitra"), ("pixelfed", "Pixelfed"),
            ("friendica", "Friendica"), ("Iceshrimp.NET", "Iceshrimp.NET"), ("sharkey", "Misskey fork"),
            ("misskey", "Misskey"),
        ]
        for (software, name) in expected {
            #expect(Platforms.platform(software: software, version: "1.0.0").name == name, "\(software)")
        }
    }

    @Test func iceshrimpNETIsRecognisedWhateverItsCapitalisation() {
        #expect(Platforms.platform(software: "Iceshrimp.NET", version: "2024.1") is IceshrimpNET)
        #expect(Platforms.platform(software: "ICESHRIMP.NET", version: "2024.1") is IceshrimpNET)
    }

    @Test func misskeyHasNoMastodonAPIAndSupportsNothing() {
        let misskey = Platforms.platform(software: "misskey", version: "2025.4.0")
        #expect(!misskey.hasMastodonAPI)
        #expect(PlatformFeature.allCases.allSatisfy { !misskey.supports($0) })
    }

    @Test func unknownSoftwareIsMastoAPIWithFeaturesUnknownNeverMastodon() {
        let platform = Platforms.platform(software: "Hollo", version: "0.6.0")
        #expect(platform is UnknownMastoAPI)
        #expect(!(platform is Mastodon))
        #expect(platform.hasMastodonAPI)
        #expect(platform.name == "hollo (MastoAPI, features unknown)")
        #expect(!platform.supports(.edits))
        #expect(!platform.supports(.idempotencyKey))
        #expect(platform.supports(.textOnlyPosts))
    }

    @Test func mastodonFeaturesFollowItsVersionAndAPIVersion() {
        let old = Platforms.platform(software: "mastodon", version: "3.4.1")
        #expect(old.supports(.polls))
        #expect(!old.supports(.edits))
        #expect(!old.supports(.statusSource))
        let four = Platforms.platform(software: "mastodon", version: "4.0.2")
        #expect(four.supports(.edits))
        #expect(!four.supports(.statusBatch))
        #expect(!four.supports(.quotePosts))
        #expect(!four.supports(.deleteMedia))
        let latest = Platforms.platform(software: "mastodon", version: "4.5.0", apiVersion: 7)
        #expect(latest.supports(.statusBatch))
        #expect(latest.supports(.quotePosts))
        #expect(latest.supports(.deleteMedia))
        #expect(latest.supports(.idempotencyKey))
        #expect(!latest.supports(.backdating))
    }

    @Test func forksDifferWhereTheirServersDiffer() {
        let gotosocial = Platforms.platform(software: "gotosocial", version: "0.19.1+git-8f2c")
        #expect(!gotosocial.supports(.idempotencyKey))
        #expect(!gotosocial.supports(.sinceID))
        #expect(gotosocial.supports(.backdating))
        #expect(gotosocial.supports(.markdown))
        #expect(gotosocial.supports(.edits))
        let pixelfed = Platforms.platform(software: "pixelfed", version: "0.12.4")
        #expect(!pixelfed.supports(.textOnlyPosts))
        #expect(!pixelfed.supports(.edits))
        let akkoma = Platforms.platform(software: "akkoma", version: "3.10.2")
        #expect(akkoma is any PleromaFamily)
        #expect(!akkoma.supports(.tokenRevocation))
        #expect(akkoma.supports(.markdown))
        #expect(Platforms.platform(software: "glitch", version: "4.3.0").supports(.markdown))
        #expect(!Platforms.platform(software: "friendica", version: "2024.08").supports(.polls))
    }

    @Test func versionsAreReadFromTheFrontOfTheString() {
        #expect(SoftwareVersion(parsing: "4.5.0") == SoftwareVersion(4, 5, 0))
        #expect(SoftwareVersion(parsing: "0.16.0+git-8f2c") == SoftwareVersion(0, 16, 0))
        #expect(SoftwareVersion(parsing: "2024.08-1") == SoftwareVersion(2024, 8, 0))
        #expect(SoftwareVersion(parsing: "v3.10") == SoftwareVersion(3, 10, 0))
        #expect(SoftwareVersion(parsing: "unknown") == .zero)
        #expect(SoftwareVersion(4, 3) > SoftwareVersion(4, 2, 9))
    }
}
