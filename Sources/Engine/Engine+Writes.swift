import EngineProtocol
import Foundation
import HTTPCore
import OrgSocial
import OrgSocialClient

/// The methods that add a post (engine-protocol.md §9.20–9.23): the params are checked before any I/O,
/// then the write cycle runs.
extension Engine {
    /// Runs one write: the change on the own feed (local file, destination, or both), then the mirror's
    /// refresh. A failed upload after a local save is `upload_pending`, remembered for the next write or
    /// `refresh`.
    func write<Value: Sendable>(_ change: @escaping @Sendable (inout Feed) throws -> Value) async throws(RPCError)
        -> Value
    {
        let account = await state.account
        guard await state.canWrite, let feedURL = account.feedURL else { throw RPCError.notConfigured }
        let result = try await store().write(change)
        await state.setLastWritten(result.feed)
        switch result.upload {
        case .failed(let reason):
            await state.setUploadPending(true)
            throw Self.uploadPending(reason)
        case .uploaded: await state.setUploadPending(false)
        case .none: break
        }
        _ = await announcer(account, relay: false).announce(feedURL)
        return result.value
    }

    /// Appends `draft` at `date` (now by default) and answers `{timestamp, url}`.
    func append(_ draft: PostDraft, at date: Date? = nil) async throws(RPCError) -> JSONValue {
        guard let feed = await state.account.feed else { throw RPCError.notConfigured }
        // As the official engine does, a post is never dated ahead of the clock: when this second's ID is
        // taken (by the post just written), wait for the next free one.
        if date == nil, let last = await state.lastWritten {
            let now = Date()
            let free = last.firstFreeMoment(for: now)
            if free > now { try? await Task.sleep(for: .seconds(free.timeIntervalSince(Date()))) }
        }
        let id = try await write { feedContent in
            let moment = date ?? Date()
            // The official engine leaves a blank line under a bare `* Posts` before the first post.
            if feedContent.posts.isEmpty, feedContent.hasPostsSection, feedContent.text.hasSuffix("* Posts\n") {
                let id = feedContent.uniqueID(for: moment)
                feedContent = Feed(bytes: feedContent.bytes + Array(("\n" + draft.render(id: id)).utf8))
                return id
            }
            return feedContent.append(draft, at: moment).id ?? ""
        }
        return .object([("timestamp", .string(id)), ("url", .string("\(feed)#\(id)"))])
    }

    /// A new draft with the account's `CLIENT`.
    func draft(body: String = "") async -> PostDraft {
        PostDraft(body: body, client: await state.account.client)
    }

    func publish(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let text = try params.requiredString("text")
        let mentions = try params.stringMap("mentions") ?? [:]
        try PostComposition.checkMentions(mentions)
        let lang = try params.string("lang").flatMap { $0.isEmpty ? nil : $0 }
        if let lang { try PostComposition.checkLanguage(lang) }
        let visibility = try PostComposition.visibility(try params.string("visibility"))
        let replyTo = try params.has("replyTo") ? Self.postReference(params, "replyTo") : nil
        let include = try params.has("include") ? Self.postReference(params, "include") : nil
        var group: GroupReference?
        if let object = try params.object("group") {
            let name = try object.requiredString("name")
            let relay = try object.requiredString("relay")
            guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw .invalidParams("group.name is empty")
            }
            try EngineAccount.checkHTTP(relay, "group.relay")
            group = GroupReference(name: name, relayURL: relay)
        }
        let scheduledAt = try params.string("scheduledAt").map { text throws(RPCError) in
            try PostComposition.futureDate(text, "scheduledAt")
        }
        var body = PostComposition.body(text, mentions: mentions)
        var pollEnd: Date?
        if let poll = try params.object("poll") {
            guard include == nil else { throw .invalidParams("a poll can't quote a post (include)") }
            let options = (try poll.strings("options") ?? []).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }
            guard options.count >= 2 else { throw .invalidParams("a poll needs at least 2 options") }
            guard Set(options).count == options.count else { throw .invalidParams("poll options must be different") }
            let end = try PostComposition.futureDate(try poll.requiredString("endsAt"), "poll.endsAt")
            if let scheduledAt, end <= scheduledAt { throw .invalidParams("poll.endsAt must be after scheduledAt") }
            pollEnd = end
            let lines = options.map { "- [ ] \($0)" }.joined(separator: "\n")
            body = body.isEmpty ? lines : body + "\n\n" + lines
        }
        guard !body.isEmpty || include != nil else { throw .invalidParams("empty post") }
        var draft = await draft(body: body)
        draft.language = lang
        draft.tags = PostComposition.tags(try params.string("tags") ?? "")
        draft.replyTo = replyTo
        draft.include = include
        draft.group = group
        draft.mood = try params.string("mood").flatMap { $0.isEmpty ? nil : $0 }
        if visibility == .mention {
            guard body.contains("[[org-social:") else {
                throw .invalidParams("a mention-only post needs at least one mention")
            }
            if group == nil { draft.visibility = .mention }
        }
        draft.pollEnd = pollEnd.map { OrgTimestamp.format($0, timeZone: .current) }
        return try await append(draft, at: scheduledAt)
    }

    func react(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let target = try Self.postReference(params, "post")
        let emoji = try params.requiredString("emoji")
        guard !emoji.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidParams("empty emoji") }
        var draft = await draft()
        draft.replyTo = target
        draft.mood = emoji
        return try await append(draft)
    }

    func boost(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let target = try Self.postReference(params, "post")
        var draft = await draft()
        draft.include = target
        return try await append(draft)
    }

    func vote(_ params: RPCParams) async throws(RPCError) -> JSONValue {
        let target = try Self.postReference(params, "post")
        let option = try params.requiredString("option")
        let (options, endsAt) = try await pollOptions(target)
        guard let endsAt, !options.isEmpty else { throw .invalidParams("the post is not a poll") }
        guard Date() < endsAt else { throw .invalidParams("the poll is closed") }
        let wanted = option.trimmingCharacters(in: .whitespaces).lowercased()
        guard let chosen = options.first(where: { $0.lowercased() == wanted }) else {
            throw .invalidParams("\"\(option)\" is not an option of this poll")
        }
        var draft = await draft()
        draft.replyTo = target
        draft.pollOption = chosen
        return try await append(draft)
    }
}
