import FakeMastodon
import Foundation
import HTTPClient
import TootClient

/// Runs `body` with a fake server of `configuration` and a client for it whose waits move the fake's
/// clock, and always stops the server.
@discardableResult
func withFake<Result>(
    _ configuration: FakeMastodonConfiguration, scopes: [String]? = ["read", "write", "profile"],
    appName: String = "orgsocial-test", _ body: (FakeMastodon, TootClient) async throws -> Result
) async throws -> Result {
    let fake = try FakeMastodon(configuration)
    do {
        var client = try TootClient(
            instanceURL: fake.url, transport: CurlTransport(userAgent: "tootclient-tests", timeout: .seconds(5)),
            clock: fakeWaits(fake))
        if let scopes { client = client.authorized(fake.issueToken(scopes: scopes, appName: appName)) }
        let result = try await body(fake, client)
        await fake.stop()
        return result
    } catch {
        await fake.stop()
        throw error
    }
}

/// A clock that reads the fake's time and, instead of sleeping, moves it forward.
func fakeWaits(_ fake: FakeMastodon) -> WaitClock {
    fake.waits
}

/// The presets that offer the Mastodon API.
let mastodonAPIPresets = FakeMastodonConfiguration.presets.filter(\.hasMastodonAPI)
