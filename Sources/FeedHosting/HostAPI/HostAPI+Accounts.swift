import Crypto
import Foundation
import HTTPCore
import OrgSocial
import SystemSupport

extension HostAPI {
    // MARK: - POST /signup

    /// `POST /signup` with `{"nick": "<nick>"}` (or a form field): creates the account and its feed from
    /// the template, and returns the vfile and the public URL.
    func signup(_ request: HTTPRequest) async -> HTTPResponse {
        let form = RequestForm(request)
        guard let nick = form.fields["nick"], !nick.isEmpty else {
            return Envelope.error("Nickname is required", status: .badRequest)
        }
        if let problem = Nickname.problem(with: nick) {
            return Envelope.error(problem, status: .badRequest)
        }
        guard let feed = FeedPath(folder: nick) else {
            return Envelope.error(
                "Nickname can only contain letters, numbers, hyphens, and underscores", status: .badRequest)
        }
        let token: String
        do {
            token = Hex.encode(try SecureRandom.bytes(count: 32))
        } catch {
            log("Cannot sign up '\(nick)': \(error.localizedDescription)")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        let timestamp = clock()
        let vfile = VFile(
            token: token,
            timestamp: timestamp,
            signature: secret.signature(token: token, timestamp: timestamp, nick: nick)
        )
        let account = HostAccount(
            nick: nick,
            tokenSHA256: FeedTokenStore.hash(token),
            timestamp: timestamp,
            redirectURL: nil,
            created: StateFolder.timestamp(.init(timeIntervalSince1970: Double(timestamp)))
        )
        let directory = store.directory
        let isRegistered: Bool
        do {
            // A folder that already exists (a feed placed by hand, or created by PUT) also takes the nick,
            // and so does one whose name folds to the same key (`ANA/` takes `ana`).
            let key = Nickname.uniquenessKey(nick)
            let tokens = self.tokens
            isRegistered = try await accounts.register(account) { _ in
                if (try? FileStatus.of(path: directory.folderPath(of: feed))) ?? nil != nil { return true }
                // A path that still has bearer tokens belongs to whoever holds them; an unreadable token
                // file counts as tokens, so a damaged file never hands a path out.
                if (try? tokens.tokenCount(for: feed)) ?? 1 > 0 { return true }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.rootPath)) ?? []
                return names.contains { !$0.hasPrefix(".") && Nickname.uniquenessKey($0) == key }
            }
        } catch {
            log("Cannot sign up '\(nick)': \(error.localizedDescription)")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        guard isRegistered else {
            return Envelope.error("Nickname '\(nick)' is already taken", status: .badRequest)
        }
        let template = Self.template(nick: nick)
        let written: Bool = await store.withWriteLock(feed) {
            do {
                if try store.snapshot(of: feed) == nil {
                    _ = try store.replace(feed, with: template)
                }
                return true
            } catch {
                log("Cannot write the new feed of '\(nick)': \(error).")
                return false
            }
        }
        guard written else {
            try? await accounts.remove(nick: nick)
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        return Envelope.success(
            .object([("vfile", .string(vfile.url(siteURL: siteURL))), ("public-url", .string(publicURL(nick: nick)))])
        )
    }

    /// The feed a new account starts with (spec §11).
    static func template(nick: String) -> [UInt8] {
        Array(
            """
            #+TITLE: \(nick)'s journal
            #+NICK: \(nick)
            #+DESCRIPTION:
            #+FOLLOW: https://org-social.org/social.org
            #+FOLLOW: https://andros.dev/static/social.org

            * Posts

            """.utf8)
    }

    // MARK: - POST /delete

    /// `POST /delete` with `{"vfile": …}`: removes the feed, every bearer token of its path, and the
    /// account, releasing the nick.
    func delete(_ request: HTTPRequest) async -> HTTPResponse {
        let form = RequestForm(request)
        let account: HostAccount
        switch await authenticate(form.fields["vfile"], unknown: .byTokenShape) {
        case .success(let found): account = found
        case .failure(let refusal): return refusal.response
        }
        if let feed = account.feed {
            let removed: Bool = await store.withWriteLock(feed) {
                do {
                    try store.remove(feed)
                } catch {
                    log("Cannot delete \(feed.relativePath): \(error).")
                    return false
                }
                // The nick is free once the account is gone: a token of the old owner must not write the
                // feed of whoever signs it up next.
                do {
                    _ = try tokens.revokeTokens(for: feed)
                    return true
                } catch {
                    log("Cannot revoke the tokens of \(feed.relativePath): \(error.localizedDescription)")
                    return false
                }
            }
            guard removed else { return Envelope.error("Internal server error", status: .internalServerError) }
        }
        do {
            try await accounts.remove(nick: account.nick)
        } catch {
            log("Cannot delete the account '\(account.nick)': \(error.localizedDescription)")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        return Envelope.success(.object([("message", "File deleted successfully")]))
    }

    // MARK: - POST /redirect, /remove-redirect

    /// `POST /redirect` with `{"vfile": …, "new-url": "https://…"}`: the public URL then answers 301 and
    /// uploads are refused.
    func redirect(_ request: HTTPRequest) async -> HTTPResponse {
        let form = RequestForm(request)
        guard let vfile = form.fields["vfile"], !vfile.isEmpty else {
            return Envelope.error("vfile parameter is required", status: .badRequest)
        }
        guard let newURL = form.fields["new-url"], !newURL.isEmpty else {
            return Envelope.error("new-url parameter is required", status: .badRequest)
        }
        guard newURL.hasPrefix("http://") || newURL.hasPrefix("https://") else {
            return Envelope.error("Invalid URL format. Must start with http:// or https://", status: .badRequest)
        }
        guard Self.isRedirectURL(newURL) else {
            return Envelope.error(
                "Invalid URL format. Must be an absolute http:// or https:// URL with a host, written with the "
                    + "characters URLs allow (no spaces, quotes, line breaks or angle brackets)",
                status: .badRequest)
        }
        let account: HostAccount
        switch await authenticate(vfile, unknown: .fileNotFound) {
        case .success(let found): account = found
        case .failure(let refusal): return refusal.response
        }
        do {
            try await accounts.setRedirect(newURL, forNick: account.nick)
        } catch {
            log("Cannot set the redirect of '\(account.nick)': \(error.localizedDescription)")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        return Envelope.success(
            .object([("message", "Redirect configured successfully"), ("redirect-url", .string(newURL))])
        )
    }

    /// Whether `text` may be stored as a redirect, which every later `GET` of the feed sends as its
    /// `Location`: an absolute http(s) URL with a host, at most 2,048 bytes, made only of the characters
    /// RFC 3986 allows (no quotes, spaces, angle brackets or control characters), every `%` followed by
    /// two hexadecimal digits.
    static func isRedirectURL(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= 2048, OrgSyntax.isHTTPURL(text) else { return false }
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&()*+,;=%".utf8)
        for (index, byte) in bytes.enumerated() {
            guard allowed.contains(byte) else { return false }
            if byte == UInt8(ascii: "%") {
                let hex = Set("0123456789ABCDEFabcdef".utf8)
                guard index + 2 < bytes.count, hex.contains(bytes[index + 1]), hex.contains(bytes[index + 2]) else {
                    return false
                }
            }
        }
        guard let components = URLComponents(string: text), let host = components.host, !host.isEmpty else {
            return false
        }
        return true
    }

    /// `POST /remove-redirect` with `{"vfile": …}`: serves and accepts the feed again.
    func removeRedirect(_ request: HTTPRequest) async -> HTTPResponse {
        let form = RequestForm(request)
        let account: HostAccount
        switch await authenticate(form.fields["vfile"], unknown: .fileNotFound) {
        case .success(let found): account = found
        case .failure(let refusal): return refusal.response
        }
        guard account.redirectURL != nil else {
            return Envelope.error("No redirect configured for this account", status: .badRequest)
        }
        do {
            try await accounts.setRedirect(nil, forNick: account.nick)
        } catch {
            log("Cannot remove the redirect of '\(account.nick)': \(error.localizedDescription)")
            return Envelope.error("Internal server error", status: .internalServerError)
        }
        return Envelope.success(.object([("message", "Redirect removed successfully")]))
    }
}
