import Bridge
import FakeMastodon
import Foundation
import HTTPClient
import Synchronization
import TestSupport
import Testing
import TootClient

/// `BridgeAccountEnrollment` against the fake Mastodon server: each way to get a token, and the undoing of
/// what was stored or issued when a later step fails.
@Suite struct BridgeAccountEnrollmentTests {
    /// Stands in for a browser: fetches pages, following redirects.
    let browser = CurlTransport(userAgent: "browser", timeout: .seconds(10))
    /// When the accounts are added.
    let now = Date(timeIntervalSince1970: 1_780_000_000)

    /// The credentials a test's store received, by account name.
    final class CredentialStore: Sendable {
        let saved = Mutex<[String: BridgeCredential]>([:])
        func save(_ credential: BridgeCredential, named name: String) { saved.withLock { $0[name] = credential } }
        var all: [String: BridgeCredential] { saved.withLock { $0 } }
    }

    /// Runs `body` with a fake of `preset`, an enrollment whose client makes no retries, and an empty state.
    func withEnrollment(
        _ preset: FakeMastodonConfiguration = .mastodon45,
        _ body: (FakeMastodon, BridgeAccountEnrollment, BridgeState) async throws -> Void
    ) async throws {
        let fake = try FakeMastodon(preset)
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        do {
            let client = try TootClient(
                instanceURL: fake.url, transport: CurlTransport(userAgent: "bridge-tests", timeout: .seconds(10)),
                retryPolicy: .init(maximumRetries: 0))
            let state = try await BridgeState(path: folder.path("bridge.sqlite"))
            try await body(fake, BridgeAccountEnrollment(client: client), state)
            try await state.close()
            await fake.stop()
        } catch {
            await fake.stop()
            throw error
        }
    }

    /// The code an out-of-band authorize page shows.
    func pastedCode(from url: URL) async throws -> String {
        let page = try await browser.send(HTTPClientRequest(url: url)).text
        return String(page.split(separator: "<code class=\"oauth-code\">").last?.split(separator: "<").first ?? "")
    }

    @Test func aGivenTokenIsVerifiedAndTheAccountAndItsCredentialAreStored() async throws {
        try await withEnrollment(.gotosocial) { fake, enrollment, state in
            let token = fake.issueToken(scopes: ["read", "write"])
            let store = CredentialStore()
            let added = try await enrollment.addAccount(
                named: nil, authorization: .token(token), to: state, at: now, saveCredential: store.save)
            #expect(added.account.name == "alice@127.0.0.1")
            #expect(added.account.addedAt == now)
            #expect(added.account.server.platform.name == "GoToSocial")
            #expect(added.remoteAccount.acct == "alice")
            #expect(try await state.accounts() == [added.account])
            let expected = BridgeCredential(instance: fake.url.absoluteString, accessToken: token, app: nil)
            #expect(store.all == ["alice@127.0.0.1": expected])
            #expect(added.credential == expected)
        }
    }

    @Test func outOfBandRegistersTheBridgesAppAndTradesThePastedCode() async throws {
        try await withEnrollment(.akkoma) { fake, enrollment, state in
            let store = CredentialStore()
            let shown = Mutex<URL?>(nil)
            let added = try await enrollment.addAccount(
                named: "ana",
                authorization: .outOfBand { url in
                    shown.withLock { $0 = url }
                    return try await pastedCode(from: url) + "\n"
                }, to: state, at: now, saveCredential: store.save)
            #expect(shown.withLock { $0 }?.path == "/oauth/authorize")
            let credential = try #require(store.all["ana"])
            #expect(credential.app?.redirectUri == TootClient.outOfBandRedirect)
            #expect(fake.storage.apps.values.map(\.name) == [BridgeIdentity.applicationName])
            #expect(fake.storage.tokens[credential.accessToken]?.scopes == ["read", "write"])
            #expect(fake.storage.tokens[credential.accessToken]?.revoked == false)
            #expect(try await state.account(named: "ana") == added.account)
        }
    }

    @Test func theLoopbackRedirectBringsTheCode() async throws {
        try await withEnrollment { fake, enrollment, state in
            let store = CredentialStore()
            let added = try await enrollment.addAccount(
                named: nil,
                authorization: .loopback(timeout: .seconds(20)) { url in
                    _ = try? await browser.send(HTTPClientRequest(url: url))
                }, to: state, at: now, saveCredential: store.save)
            let credential = try #require(store.all[added.account.name])
            #expect(credential.app?.redirectUri?.hasPrefix("http://127.0.0.1:") == true)
            #expect(fake.storage.tokens[credential.accessToken]?.revoked == false)
        }
    }

    @Test func noRedirectWithinTheTimeoutStoresNothing() async throws {
        try await withEnrollment { _, enrollment, state in
            let store = CredentialStore()
            await #expect(throws: BridgeError.authorizationTimedOut(waited: .milliseconds(200))) {
                try await enrollment.addAccount(
                    named: nil, authorization: .loopback(timeout: .milliseconds(200)) { _ in }, to: state, at: now,
                    saveCredential: store.save)
            }
            let accounts = try await state.accounts()
            #expect(accounts.isEmpty)
            #expect(store.all.isEmpty)
        }
    }

    @Test func aTokenIssuedBeforeTheVerificationFailsIsRevoked() async throws {
        try await withEnrollment { fake, enrollment, state in
            fake.inject(.nonJSONSuccess, pathPrefix: "/api/v1/accounts/verify_credentials")
            let store = CredentialStore()
            await #expect(throws: TootClientError.self) {
                try await enrollment.addAccount(
                    named: nil, authorization: .outOfBand { try await pastedCode(from: $0) }, to: state, at: now,
                    saveCredential: store.save)
            }
            let tokens = fake.storage.tokens.values
            #expect(tokens.count == 1)
            #expect(tokens.allSatisfy { $0.revoked })
            let accounts = try await state.accounts()
            #expect(accounts.isEmpty)
            #expect(store.all.isEmpty)
        }
    }

    @Test func aCredentialThatCannotBeSavedTakesTheAccountOutAndRevokesTheToken() async throws {
        struct Unsaved: Error, Equatable {}
        try await withEnrollment { fake, enrollment, state in
            await #expect(throws: Unsaved()) {
                try await enrollment.addAccount(
                    named: "ana", authorization: .outOfBand { try await pastedCode(from: $0) }, to: state, at: now
                ) { _, _ in throw Unsaved() }
            }
            let accounts = try await state.accounts()
            #expect(accounts.isEmpty)
            let tokens = fake.storage.tokens.values
            #expect(tokens.count == 1)
            #expect(tokens.allSatisfy { $0.revoked })
        }
    }

    @Test func aGivenTokenIsNotRevokedWhenTheAdditionFails() async throws {
        struct Unsaved: Error, Equatable {}
        try await withEnrollment { fake, enrollment, state in
            let token = fake.issueToken(scopes: ["read", "write"])
            await #expect(throws: Unsaved()) {
                try await enrollment.addAccount(named: nil, authorization: .token(token), to: state, at: now) { _, _ in
                    throw Unsaved()
                }
            }
            let accounts = try await state.accounts()
            #expect(accounts.isEmpty)
            #expect(fake.storage.tokens[token]?.revoked == false)
        }
    }

    @Test func aNameTheStateHoldsIsRefusedBeforeTheServerIsAsked() async throws {
        try await withEnrollment { fake, enrollment, state in
            let token = fake.issueToken(scopes: ["read", "write"])
            let store = CredentialStore()
            _ = try await enrollment.addAccount(
                named: "work", authorization: .token(token), to: state, at: now, saveCredential: store.save)
            let requests = fake.journal.count
            await #expect(throws: BridgeError.accountExists(name: "work")) {
                try await enrollment.addAccount(
                    named: "work", authorization: .outOfBand { _ in "unused" }, to: state, at: now,
                    saveCredential: store.save)
            }
            #expect(fake.journal.count == requests)
            #expect(!fake.storage.apps.values.contains { $0.name == BridgeIdentity.applicationName })
        }
    }

    @Test func aRefusedTokenStoresNothing() async throws {
        try await withEnrollment { _, enrollment, state in
            let store = CredentialStore()
            let error = await #expect(throws: TootClientError.self) {
                try await enrollment.addAccount(
                    named: nil, authorization: .token("not-a-token"), to: state, at: now, saveCredential: store.save)
            }
            guard case .unauthorized = error else {
                Issue.record("Expected unauthorized, got \(String(describing: error))")
                return
            }
            let accounts = try await state.accounts()
            #expect(accounts.isEmpty)
            #expect(store.all.isEmpty)
        }
    }
}
