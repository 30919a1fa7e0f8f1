import Foundation
import HTTPCore

extension FakeMastodon {
    /// An account as JSON.
    func render(_ account: FakeAccount, withSource: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(account.id)), ("username", .string(account.username)), ("acct", .string(account.acct)),
            ("display_name", .string(account.username.capitalized)), ("url", .string(account.url)),
        ]
        if withSource {
            members.append(
                (
                    "source",
                    .object([("privacy", "public"), ("sensitive", .bool(false)), ("language", "en"), ("note", "")])
                ))
        }
        return .object(members)
    }

    /// A status as Mastodon serializes it for `viewer`; `application` only for the author's own token.
    func render(_ status: FakeStatus, in storage: FakeMastodonStorage, viewer: String?, withText: Bool = false)
        -> JSONValue
    {
        let account = storage.accounts[status.accountID] ?? user
        let original = status.reblogOf.flatMap { storage.statuses[$0] }
        let tokens = FakeStatusText.tokens(status.text)
        var mentions: [JSONValue] = []
        var tags: [JSONValue] = []
        for token in tokens {
            switch token {
            case .mention(let username, let domain):
                let acct = domain.map { "\(username)@\($0)" } ?? username
                if let mentioned = storage.accounts.values.first(where: { $0.acct == acct }) {
                    mentions.append(
                        .object([
                            ("id", .string(mentioned.id)), ("username", .string(mentioned.username)),
                            ("url", .string(mentioned.url)), ("acct", .string(mentioned.acct)),
                        ]))
                }
            case .hashtag(let name):
                tags.append(
                    .object([("name", .string(name.lowercased())), ("url", .string("http://\(host)/tags/\(name)"))]))
            default: break
            }
        }
        let content =
            original == nil
            ? FakeStatusText.html(status.text, host: host) { username, domain in
                let acct = domain.map { "\(username)@\($0)" } ?? username
                return storage.accounts.values.first { $0.acct == acct }?.url
            } : ""
        var members: [(String, JSONValue)] = [
            ("id", .string(status.id)), ("created_at", .string(FakeClock.iso8601(status.createdAt))),
            ("in_reply_to_id", .string(orNull: status.inReplyToID)),
            ("in_reply_to_account_id", .string(orNull: status.inReplyToAccountID)),
            ("sensitive", .bool(status.sensitive)), ("spoiler_text", .string(status.spoilerText)),
            ("visibility", .string(status.visibility)), ("language", .string(orNull: status.language)),
            ("uri", .string("http://\(host)/users/\(account.username)/statuses/\(status.id)")),
            ("url", .string("http://\(host)/@\(account.username)/\(status.id)")),
            ("replies_count", .int(0)),
            ("reblogs_count", .int(storage.statuses.values.filter { $0.reblogOf == status.id }.count)),
            ("favourites_count", .int(status.favouritedBy.count)),
            ("edited_at", status.editedAt.map { .string(FakeClock.iso8601($0)) } ?? .null),
            ("favourited", .bool(viewer.map { status.favouritedBy.contains($0) } ?? false)),
            (
                "reblogged",
                .bool(storage.statuses.values.contains { $0.reblogOf == status.id && $0.accountID == viewer })
            ),
            ("pinned", .bool(status.pinned)),
            ("content", .string(content)),
            ("reblog", original.map { render($0, in: storage, viewer: viewer) } ?? .null),
        ]
        if viewer == status.accountID, let name = status.applicationName {
            members.append(("application", .object([("name", .string(name)), ("website", .null)])))
        }
        members.append(("account", render(account)))
        members.append(("media_attachments", .array(status.mediaIDs.compactMap { storage.media[$0].map(render) })))
        members.append(("mentions", .array(mentions)))
        members.append(("tags", .array(tags)))
        members.append(("emojis", .array([])))
        members.append(("poll", status.poll.map { render($0, viewer: viewer) } ?? .null))
        if withText { members.append(("text", .string(status.text))) }
        return .object(members)
    }

    /// A poll as JSON.
    func render(_ poll: FakePoll, viewer: String?) -> JSONValue {
        let own = viewer.flatMap { poll.voters[$0] }
        return .object([
            ("id", .string(poll.id)), ("expires_at", .string(FakeClock.iso8601(poll.expiresAt))),
            ("expired", .bool(poll.expiresAt <= clock.now)), ("multiple", .bool(poll.multiple)),
            ("votes_count", .int(poll.votes.reduce(0, +))), ("voters_count", .int(poll.voters.count)),
            (
                "options",
                .array(
                    zip(poll.options, poll.votes).map { title, votes in
                        .object([("title", .string(title)), ("votes_count", .int(votes))])
                    })
            ),
            ("emojis", .array([])), ("voted", .bool(own != nil)), ("own_votes", .array((own ?? []).map { .int($0) })),
        ])
    }

    /// Media as JSON: `url` is null until processed.
    func render(_ media: FakeMedia) -> JSONValue {
        let file = "http://\(host)/system/media/\(media.id)"
        return .object([
            ("id", .string(media.id)), ("type", .string(media.type)),
            ("url", media.isProcessed ? .string(file) : .null), ("preview_url", .string(file + "-small")),
            ("remote_url", .null), ("description", .string(orNull: media.description)), ("blurhash", .null),
        ])
    }
}
