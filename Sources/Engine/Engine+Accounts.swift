import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial
import OrgSocialClient

/// The directory of feeds and host accounts (engine-protocol.md §9.11, §9.32).
extension Engine {
    func discover(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let page = max(1, try params.int("page") ?? 1)
        let answer = try await mirror().get("feeds", [("page", String(page)), ("perPage", "40")])
        let own = await state.account.feed
        let follows = await ownFeedIfAny()?.profile.follows ?? []
        var accounts: [JSONValue] = []
        if case .array(let items) = answer.data {
            for case .object(let fields) in items {
                guard case .string(let url)? = fields["url"] else { continue }
                accounts.append(
                    .object([
                        ("profile", ProfileJSON.mirror(fields, feed: url)),
                        ("isFollowed", .bool(follows.contains { FeedURL.same($0.url, url) })),
                        ("isOwn", .bool(own.map { FeedURL.same($0, url) } ?? false)),
                    ]))
            }
        }
        return .object([("accounts", .array(accounts)), ("hasMore", .bool(answer.hasMore))])
    }

    func signup(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let nick = try params.requiredString("nick")
        guard !nick.isEmpty, !nick.contains(where: \.isWhitespace) else {
            throw .invalidParams("nick can't be empty or contain spaces")
        }
        let host = try EngineAccount.checkHTTP(try params.string("host") ?? "https://host.org-social.org", "host")
        do {
            let account = try await FeedPublisher(transport: transport).signup(host: host, nick: nick)
            return .object([
                ("vfile", .string(account.vfile.absoluteString)), ("feed", .string(account.publicURL.absoluteString)),
            ])
        } catch OrgSocialClientError.hostError(_, let status, let messages) {
            guard let first = messages.first else { throw RPCError(.network, "HTTP \(status) from the host.") }
            if first.localizedCaseInsensitiveContains("already taken") {
                throw .invalidParams("Nickname '\(nick)' is already taken.")
            }
            if first.localizedCaseInsensitiveContains("required") {
                throw .invalidParams("Nickname is required.")
            }
            throw RPCError(.network, first)
        } catch OrgSocialClientError.invalidResponse {
            throw RPCError(.network, "The host returned a response we could not parse.")
        } catch {
            throw EngineErrors.rpc(error)
        }
    }

    func deleteAccount(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let vfile = try EngineAccount.checkHTTP(try params.requiredString("vfile"), "vfile")
        do {
            try await FeedPublisher(transport: transport).deleteAccount(vfile: vfile)
            return .object([])
        } catch OrgSocialClientError.vfileRejected(_, let message) {
            throw Self.hostRefusal(message.map { [$0] } ?? [], status: 401)
        } catch OrgSocialClientError.hostError(_, let status, let messages) {
            throw Self.hostRefusal(messages, status: status)
        } catch {
            throw EngineErrors.rpc(error)
        }
    }

    /// A refusal of `deleteAccount` as the official engine words it, from the host's first message.
    static func hostRefusal(_ messages: [String], status: Int) -> RPCError {
        guard let first = messages.first else { return RPCError(.network, "HTTP \(status) from the host.") }
        if first.localizedCaseInsensitiveContains("invalid") && first.localizedCaseInsensitiveContains("token") {
            return .invalidParams("Invalid vfile token.")
        }
        if first.localizedCaseInsensitiveContains("not found") {
            return RPCError(.notFound, "Account not found on the host.")
        }
        return RPCError(.network, first)
    }
}
