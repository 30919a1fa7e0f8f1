import Foundation
import TootClient

/// `tootclient-example`: discover a Mastodon-API server, authorize (out of band, or a token from
/// `TOOT_TOKEN`), optionally post, and page through the account's statuses oldest first.
///
/// ```
/// swift run tootclient-example https://mastodon.social
/// TOOT_TOKEN=… swift run tootclient-example https://mastodon.social --post "Hello from Org"
/// ```
@main
struct TootClientTour {
    /// Runs the tour; errors are printed with what to do.
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        var text: String?
        if let index = arguments.firstIndex(of: "--post"), index + 1 < arguments.count {
            text = arguments[index + 1]
            arguments.removeSubrange(index...(index + 1))
        }
        guard let address = arguments.first, let instanceURL = URL(string: address) else {
            print("usage: tootclient-example INSTANCE_URL [--post TEXT]   (TOOT_TOKEN=… to skip authorizing)")
            return
        }
        do {
            try await tour(instanceURL, text: text)
        } catch {
            print("error:", (error as? any LocalizedError)?.errorDescription ?? "\(error)")
        }
    }

    private static func tour(_ instanceURL: URL, text: String?) async throws {
        let anonymous = try TootClient(instanceURL: instanceURL)
        let server = try await anonymous.discover()
        print(
            "\(server.platform.name) \(server.version): \(server.limits.maxCharacters) characters, URLs count \(server.limits.charactersPerURL)"
        )
        var client = anonymous.configured(with: server)
        if let token = ProcessInfo.processInfo.environment["TOOT_TOKEN"] {
            client = client.authorized(token)
        } else {
            let scopes = ["read", "write"]
            let app = try await client.registerApp(
                name: "tootclient-example", redirectURI: TootClient.outOfBandRedirect, scopes: scopes)
            let pending = try client.authorization(for: app, scopes: scopes)
            print("Open \(pending.url.absoluteString)\nand paste the code:")
            guard let code = readLine(), !code.isEmpty else { return }
            let token = try await client.exchange(code: code, authorization: pending, app: app)
            client = client.authorized(token.accessToken)
        }
        let account = try await client.verifyCredentials()
        print("Signed in as @\(account.acct)")
        if let text {
            let status = try await client.postStatus(StatusDraft(text: text), idempotencyKey: UUID().uuidString)
            print("Posted \(status.url ?? status.id)")
        }
        var count = 0
        try await client.forEachNewStatus(accountID: account.id, after: nil) { status in
            count += 1
            if count <= 5 { print(status.createdAt.formatted(.iso8601), status.id, status.url ?? "") }
        }
        print("\(count) statuses")
    }
}
