import Crypto
import HTTPCore
import SystemSupport

/// The Host API accounts, kept in `<root>/.orgsocial/accounts.json` (mode 0600, written atomically).
///
/// Changes go through the actor, one at a time, and are on disk before they return. Readers on the hot
/// path (every GET of a feed checks for a redirect) use ``directory``, a copy published after each
/// change, so they never wait for the actor.
actor AccountStore {
    /// The accounts by nick, as of the last change; safe to read from any thread.
    nonisolated let directory = AccountDirectory()
    private let path: String
    private var accounts: [HostAccount]

    /// Loads the accounts file (an absent file means no accounts).
    ///
    /// - Throws: ``FeedHostingError`` if the file cannot be read or parsed.
    init(path: String) throws(FeedHostingError) {
        self.path = path
        if let bytes = try StateFolder.read(path) {
            let file = try StateFolder.decode(File.self, from: bytes, path: path)
            guard file.version == 1 else {
                throw .corruptStateFile(path: path, reason: "its version is \(file.version), not 1")
            }
            accounts = file.accounts
        } else {
            accounts = []
        }
        directory.publish(accounts)
    }

    private struct File: Decodable {
        var version: Int
        var accounts: [HostAccount]
    }

    /// The account whose vfile token hashes to `tokenSHA256` (every stored hash compared in constant time).
    func account(tokenSHA256: String) -> HostAccount? {
        let candidate = Array(tokenSHA256.utf8)
        var found: HostAccount?
        for account in accounts where ConstantTime.isEqual(Array(account.tokenSHA256.utf8), candidate) {
            found = found ?? account
        }
        return found
    }

    /// Adds `account` unless its nick is taken: by an account whose nick folds to the same
    /// ``Nickname/uniquenessKey(_:)`` (`ANA` takes `ana`), or by `isTaken`.
    ///
    /// - Parameters:
    ///   - account: The new account.
    ///   - isTaken: Extra check run inside the actor, such as "the folder already exists".
    /// - Returns: `false` if the nick was taken.
    /// - Throws: ``FeedHostingError`` if the file cannot be written; nothing changes then.
    func register(_ account: HostAccount, unless isTaken: @Sendable (String) -> Bool) throws(FeedHostingError) -> Bool {
        let key = Nickname.uniquenessKey(account.nick)
        guard !accounts.contains(where: { Nickname.uniquenessKey($0.nick) == key }), !isTaken(account.nick) else {
            return false
        }
        try save(accounts + [account])
        return true
    }

    /// Sets or clears the redirect of the account called `nick`.
    ///
    /// - Throws: ``FeedHostingError`` if the file cannot be written; nothing changes then.
    func setRedirect(_ url: String?, forNick nick: String) throws(FeedHostingError) {
        try save(
            accounts.map { account in
                var changed = account
                if account.nick == nick {
                    changed.redirectURL = url
                }
                return changed
            })
    }

    /// Removes the account called `nick`, releasing the nick.
    ///
    /// - Throws: ``FeedHostingError`` if the file cannot be written; nothing changes then.
    func remove(nick: String) throws(FeedHostingError) {
        try save(accounts.filter { $0.nick != nick })
    }

    private func save(_ newAccounts: [HostAccount]) throws(FeedHostingError) {
        let value = JSONValue.object([("version", .int(1)), ("accounts", .array(newAccounts.map(\.json)))])
        try StateFolder.write(value.encoded(pretty: true) + [UInt8(ascii: "\n")], to: path)
        accounts = newAccounts
        directory.publish(newAccounts)
    }
}

/// A read-only view of the accounts for request handlers, replaced whole after each change.
final class AccountDirectory: Sendable {
    // A readers–writer lock around one dictionary, read on every GET; see FeedCache for why not an actor.
    private let byNick = ReadMostly<[String: HostAccount]>([:])

    /// The account called `nick`.
    func account(nick: String) -> HostAccount? {
        byNick.read { $0[nick] }
    }

    /// Every account.
    var all: [HostAccount] {
        byNick.read { Array($0.values) }
    }

    func publish(_ accounts: [HostAccount]) {
        let table = Dictionary(accounts.map { ($0.nick, $0) }, uniquingKeysWith: { first, _ in first })
        byNick.write { $0 = table }
    }
}
